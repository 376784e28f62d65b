// The run's timeline: --stats lists every phase span with its thread, start
// and end, and --trace writes the same spans as a Chrome trace. Both must
// be valid JSON with the phases in the order they ran.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::vector<std::string> kSpec = {"--record-size", "16", "--key", "0:u64"};

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> all = kSpec;
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

// The spans of one thread, in the order listed, as (phase, start, end).
struct Span {
  std::string phase;
  double start, end;
};
std::vector<Span> spans_of(const nlohmann::json& timeline, const std::string& thread) {
  std::vector<Span> out;
  for (const auto& s : timeline) {
    if (s["thread"] == thread) out.push_back({s["phase"], s["start_s"], s["end_s"]});
  }
  return out;
}

// The first span of `phase` in `spans`; fails the test when there is none.
Span first(const std::vector<Span>& spans, const std::string& phase) {
  for (const Span& s : spans) {
    if (s.phase == phase) return s;
  }
  ADD_FAILURE() << "no span of phase " << phase;
  return {};
}

TEST(Timeline, InMemorySortListsItsPhasesInOrder) {
  TempDir dir;
  write_file(dir.file("in"), Rng(1).bytes(16 * 100000));
  const ProcessResult r =
      run_gsort(args({dir.file("in"), "-o", dir.file("out"), "--stats", dir.file("s.json"), "-T", dir.path()}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json s = nlohmann::json::parse(read_file(dir.file("s.json")));
  ASSERT_TRUE(s["timeline"].is_array());
  double last_start = 0;
  for (const auto& span : s["timeline"]) {
    EXPECT_GE(span["start_s"].get<double>(), last_start) << "timeline not ordered by start";
    EXPECT_LE(span["start_s"].get<double>(), span["end_s"].get<double>()) << span.dump();
    last_start = span["start_s"];
  }
  const std::vector<Span> main = spans_of(s["timeline"], "main");
  // Each phase of the in-memory path on the main thread starts after the one
  // before it ends. (--stats is written just before the output's commit, so
  // the commit is not in it.)
  const char* order[] = {"start backend", "allocate", "read", "gather+write"};
  for (size_t i = 1; i < std::size(order); ++i) {
    // Each span's ends are separate clock readings, microseconds apart (more
    // under a sanitizer): "in order" allows 1 ms.
    EXPECT_LE(first(main, order[i - 1]).end, first(main, order[i]).start + 1e-3)
        << order[i - 1] << " should end before " << order[i] << " starts";
  }
  // The sort runs on a thread of its own once the read has ended, and the
  // write, which starts with the sort's first final part, ends after it.
  const Span sort = first(spans_of(s["timeline"], "sort"), "sort");
  const Span write = first(main, "gather+write");
  EXPECT_LE(first(main, "read").end, sort.start + 1e-3) << "the sort should start after the read";
  EXPECT_LE(sort.start, write.start + 1e-3) << "the write should start after the sort";
  EXPECT_LE(sort.end, write.end + 1e-3) << "the write should end after the sort";
  // total_s is timed from after the options were read, shortly before the
  // backend starts; the timeline from the start of the process.
  EXPECT_LE(first(main, "gather+write").end, s["total_s"].get<double>() + first(main, "start backend").start + 1e-3);
}

TEST(Timeline, SpilledSortReadsAheadAndWritesRunsOnThreadsOfTheirOwn) {
  TempDir dir;
  write_file(dir.file("in"), Rng(2).bytes(16 * 400000));  // 6.4 MB with -S 1M: several runs
  const ProcessResult r = run_gsort(
      args({dir.file("in"), "-o", dir.file("out"), "-S", "1M", "--backend", "cpu", "--stats", dir.file("s.json"), "-T",
            dir.path()}));  // the CPU backend: a GPU host's device tier would hold the whole input
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json s = nlohmann::json::parse(read_file(dir.file("s.json")));
  ASSERT_GT(s["runs"].get<int>(), 1);
  const std::vector<Span> reader = spans_of(s["timeline"], "reader");
  ASSERT_FALSE(reader.empty()) << "no read-ahead spans";
  for (const Span& span : reader) EXPECT_EQ(span.phase, "read");
  // Each run is written on the spill thread after its chunk's sort on the
  // main thread, one at a time, while the next chunk is sorted; all before
  // the final merge.
  const std::vector<Span> main = spans_of(s["timeline"], "main");
  const std::vector<Span> spills = spans_of(s["timeline"], "spill");
  std::vector<Span> sorts;
  for (const Span& span : main) {
    if (span.phase == "sort") sorts.push_back(span);
  }
  ASSERT_EQ(spills.size(), s["runs"].get<size_t>());
  ASSERT_EQ(sorts.size(), spills.size());
  const Span merge = first(main, "final merge");
  for (size_t i = 0; i < spills.size(); ++i) {
    EXPECT_EQ(spills[i].phase, "write runs");
    EXPECT_LE(sorts[i].end, spills[i].start + 1e-3) << "run " << i << " written before its chunk was sorted";
    if (i > 0) EXPECT_LE(spills[i - 1].end, spills[i].start + 1e-3) << "two runs written at once";
    EXPECT_LE(spills[i].end, merge.start + 1e-3);
  }
}

TEST(Timeline, TraceFileIsAChromeTraceOfTheSameSpans) {
  TempDir dir;
  write_file(dir.file("in"), Rng(3).bytes(16 * 400000));
  const ProcessResult r =
      run_gsort(args({dir.file("in"), "-o", dir.file("out"), "-S", "1M", "--backend", "cpu", "--trace", dir.file("t.json"),
                      "--stats", dir.file("s.json"), "-T", dir.path()}));  // spilled on a GPU host too
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json t = nlohmann::json::parse(read_file(dir.file("t.json")));
  const nlohmann::json s = nlohmann::json::parse(read_file(dir.file("s.json")));
  size_t complete = 0;
  bool named_main = false, named_reader = false;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "X") {
      ++complete;
      EXPECT_GE(e["ts"].get<int64_t>(), 0);
      EXPECT_GE(e["dur"].get<int64_t>(), 0);
    } else if (e["ph"] == "M" && e["name"] == "thread_name") {
      named_main |= e["args"]["name"] == "main";
      named_reader |= e["args"]["name"] == "reader";
    }
  }
  EXPECT_EQ(complete, s["timeline"].size());
  EXPECT_TRUE(named_main);
  EXPECT_TRUE(named_reader);
}

TEST(Timeline, TraceNeedsAFileAndAWritablePlace) {
  TempDir dir;
  write_file(dir.file("in"), Rng(4).bytes(16 * 10));
  ProcessResult r = run_gsort(args({dir.file("in"), "-o", dir.file("out"), "--trace", "-"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trace needs a file name"), std::string::npos) << r.err;
  r = run_gsort(args({dir.file("in"), "-o", dir.file("out"), "--trace", dir.file("missing/t.json")}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(path_exists(dir.file("out"))) << "the sort ran although --trace could not be written";
}

}  // namespace
}  // namespace gsort_test
