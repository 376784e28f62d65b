// The run writer (src/merge/run_streams.h) over both units: records through
// RunOutput and lines through LineRunOutput, written as 1 to 8 streams side
// by side, plain and zstd-compressed, for no unit, one, fewer units than
// streams and many; read back through TempRuns::open, a run holds the
// sorted units in order, and its segments hold them all. For lines, -u
// drops equal lines across the slices' ends as within them.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/merge/line_run_output.h"
#include "src/merge/run_output.h"
#include "src/merge/temp_runs.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

using gsort_test::Rng;

constexpr uint32_t kRs = 16;

// Every byte of the run, read back in order.
std::string read_run(TempRuns& runs, PendingSource& run) {
  std::unique_ptr<RecordSource> source = runs.open(run);
  std::string bytes;
  std::vector<uint8_t> buf(4096 * runs.record_size());
  for (uint64_t n; (n = source->read(buf.data(), 4096)) > 0;) {
    bytes.append(reinterpret_cast<const char*>(buf.data()), n * runs.record_size());
  }
  return bytes;
}

// A temporary directory's runs of `rs`-byte units, written in small blocks.
struct Runs {
  Runs(const gsort_test::TempDir& dir, uint32_t rs, bool compressed, ThreadPool& pool)
      : log(false), runs(dir.path(), log, rs) {
    runs.plan_writes(8192, false);
    RunCompression c;
    c.enabled = compressed;
    c.frame_bytes = 4096;
    c.pool = &pool;
    runs.compress(c);
  }
  Log log;
  TempRuns runs;
};

TEST(RunStreams, RecordsComeBackInOrderFromEveryStreamCount) {
  ThreadPool pool(4);
  gsort_test::TempDir dir;
  Rng rng(7);
  for (bool compressed : {false, true}) {
    for (unsigned streams : {1u, 2u, 3u, 8u}) {
      for (uint64_t count : {0u, 1u, 5u, 3000u}) {
        SCOPED_TRACE(std::to_string(streams) + " streams, " + std::to_string(count) + " records" +
                     (compressed ? ", compressed" : ""));
        const std::string records = rng.bytes(count * kRs);
        std::vector<uint32_t> order(count);
        std::iota(order.begin(), order.end(), 0u);
        std::shuffle(order.begin(), order.end(), rng);
        std::string expected;
        for (uint32_t i : order) expected.append(records, uint64_t{i} * kRs, kRs);
        Runs r(dir, kRs, compressed, pool);
        PendingSource run;
        RunOutput out(r.runs, "run", run, streams);
        out.append_gathered(pool, reinterpret_cast<const uint8_t*>(records.data()), order.data(), count);
        const RunFigures figures = out.finish();
        EXPECT_EQ(run.segments.size(), streams);
        EXPECT_EQ(figures.record_bytes, count * kRs);
        EXPECT_EQ(read_run(r.runs, run), expected);
      }
    }
  }
}

TEST(RunStreams, LinesComeBackInOrderAndMinusUDropsAcrossTheSlices) {
  ThreadPool pool(4);
  gsort_test::TempDir dir;
  Rng rng(8);
  const LineComparator unique(make_line_spec(LineOptions{}, false, true));
  for (bool compressed : {false, true}) {
    for (unsigned streams : {1u, 2u, 3u, 8u}) {
      for (uint64_t count : {0u, 1u, 5u, 3000u}) {
        // Few values, so that equal lines meet at the slices' ends.
        std::vector<std::string> lines;
        for (uint64_t i = 0; i < count; ++i) {
          lines.push_back(std::string(rng.below(300), 'x') + std::to_string(rng.below(4)));
        }
        std::sort(lines.begin(), lines.end());
        std::string text;
        std::vector<uint64_t> starts{0};
        for (const std::string& l : lines) {
          text += l + '\n';
          starts.push_back(text.size());
        }
        std::vector<uint32_t> order(count);
        std::iota(order.begin(), order.end(), 0u);
        const LineSpan span{reinterpret_cast<const uint8_t*>(text.data()), starts.data(), count};
        for (bool dedupe : {false, true}) {
          SCOPED_TRACE(std::to_string(streams) + " streams, " + std::to_string(count) + " lines" +
                       (compressed ? ", compressed" : "") + (dedupe ? ", -u" : ""));
          std::string expected;
          for (uint64_t i = 0; i < count; ++i) {
            if (dedupe && i > 0 && lines[i] == lines[i - 1]) continue;
            expected += lines[i] + '\n';
          }
          Runs r(dir, 1, compressed, pool);
          PendingSource run;
          LineRunOutput out(r.runs, run, streams, '\n', dedupe ? &unique : nullptr, nullptr);
          out.append_sorted(pool, span, order.data(), count);
          const LineRunFigures figures = out.finish();
          EXPECT_EQ(run.segments.size(), streams);
          EXPECT_EQ(figures.bytes, expected.size());
          EXPECT_EQ(read_run(r.runs, run), expected);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gsort
