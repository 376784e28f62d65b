// The final merge on every core (src/merge/parallel_merge.h) against the
// run merger's sequential merge (src/merge/run_merger.h) of the same run
// files: byte for byte, over 2 to 500 runs, unique keys, heavy duplicates
// and one key, -u across the ranges, -r and two-key layouts, one-record
// runs, runs of several segments and compressed runs. A damaged block or
// frame is a DataError naming the run's file. The plan refuses what the
// budget cannot hold.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/file/checksum.h"
#include "io/run/run_file.h"
#include "io/run/run_segments.h"
#include "io/run/run_view.h"
#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "src/merge/background_release.h"
#include "src/merge/parallel_merge.h"
#include "src/merge/run_merger.h"
#include "tests/support/rng.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr uint32_t kRs = 16;

const uint8_t* bytes(const std::string& s, size_t at = 0) { return reinterpret_cast<const uint8_t*>(s.data()) + at; }

struct Storage {
  bool compressed = false;
  unsigned segments = 1;
};

// Sorted runs written as run files, each in `segments` files.
class RunFiles {
 public:
  RunFiles(const TempDir& dir, const gsort::KeyLayout& layout, const Storage& storage)
      : dir_(dir), layout_(layout), storage_(storage) {}

  // A run of `count` records: a u32 key below `distinct`, the run's number,
  // the record's, then random bytes; sorted stably by the layout.
  void add(uint64_t count, uint32_t distinct, Rng& rng) {
    std::vector<std::string> records(count);
    for (uint64_t i = 0; i < count; ++i) {
      std::string& rec = records[i];
      rec = rng.bytes(kRs);
      const uint32_t key = static_cast<uint32_t>(rng.below(distinct)), run = static_cast<uint32_t>(runs_.size());
      const uint32_t number = static_cast<uint32_t>(i);
      std::memcpy(&rec[0], &key, 4);
      std::memcpy(&rec[4], &run, 4);
      std::memcpy(&rec[8], &number, 4);
    }
    std::stable_sort(records.begin(), records.end(), [&](const std::string& a, const std::string& b) {
      return layout_.compare(bytes(a), bytes(b)) < 0;
    });
    std::string all;
    for (const std::string& r : records) all += r;
    write(all);
  }

  size_t runs() const { return runs_.size(); }
  const std::string& segment_path(size_t run, size_t segment) const { return runs_[run][segment]; }
  uint64_t records() const { return records_; }

  // The run merger's output: a merge of RunReaders through an OutputWriter.
  std::string merge_sequentially(gsort::ThreadPool& pool, const gsort::KeyLayout* unique_by) const {
    std::vector<std::unique_ptr<gsort::RecordSource>> sources;
    for (size_t r = 0; r < runs_.size(); ++r) {
      std::vector<std::unique_ptr<gsort::RecordSource>> segments;
      for (size_t s = 0; s < runs_[r].size(); ++s) {
        segments.push_back(std::make_unique<gsort::RunReader>(runs_[r][s], kRs, nullptr, false, identity(r, s)));
      }
      sources.push_back(std::make_unique<gsort::RunSegmentsReader>(std::move(segments), kRs));
    }
    std::string out;
    gsort::OutputWriter writer([&out](const uint8_t* data, size_t n) { out.append(reinterpret_cast<const char*>(data), n); },
                               kRs, 4096, unique_by);
    const std::unique_ptr<gsort::SortBackend> backend = gsort::make_cpu_backend(layout_, pool);
    gsort::MergeOptions options;
    options.window_records = 37;
    gsort::merge_runs(sources, layout_, *backend, pool, options, writer);
    writer.finish();
    return out;
  }

  // Views of the runs over files opened here.
  std::vector<std::unique_ptr<gsort::RunView>> views(gsort::RunDecoderPool& decoders) {
    files_.clear();
    files_.reserve(runs_.size() * storage_.segments);
    std::vector<std::unique_ptr<gsort::RunView>> out;
    for (size_t r = 0; r < runs_.size(); ++r) {
      std::vector<gsort::RunViewSegment> segments;
      for (size_t s = 0; s < runs_[r].size(); ++s) {
        files_.push_back(gsort::File::open_update(runs_[r][s]));  // as gsort holds its runs
        segments.push_back(gsort::RunViewSegment{&files_.back(), identity(r, s)});
      }
      out.push_back(std::make_unique<gsort::RunView>(std::move(segments), kRs, &decoders));
    }
    return out;
  }

 private:
  static gsort::RunIdentity identity(size_t run, size_t segment) { return gsort::RunIdentity{7, run * 100 + segment}; }

  void write(const std::string& all) {
    gsort::RunCompression compression;
    compression.enabled = storage_.compressed;
    compression.frame_bytes = 45 * kRs;
    const uint64_t count = all.size() / kRs;
    std::vector<std::string> paths;
    for (unsigned s = 0; s < storage_.segments; ++s) {
      const uint64_t from = gsort::split_point(count, storage_.segments, s);
      const uint64_t to = gsort::split_point(count, storage_.segments, s + 1);
      paths.push_back(dir_.file("run" + std::to_string(runs_.size()) + "." + std::to_string(s)));
      gsort::RunWriter w(paths.back(), kRs, compression, identity(runs_.size(), s));
      // In uneven pieces, as the write-behind buffers hand them over.
      for (uint64_t at = from; at < to;) {
        const uint64_t n = std::min<uint64_t>(to - at, 1 + (at * 7) % 997);
        w.append(bytes(all, at * kRs), n);
        at += n;
      }
      w.finish();
    }
    runs_.push_back(paths);
    records_ += count;
  }

  const TempDir& dir_;
  const gsort::KeyLayout& layout_;
  const Storage storage_;
  std::vector<std::vector<std::string>> runs_;  // each run's segment paths
  std::vector<gsort::File> files_;
  uint64_t records_ = 0;
};

struct Merged {
  std::string out;
  gsort::ParallelMergeResult result;
};

// The views as the merge takes them.
std::vector<const gsort::RunView*> pointers(const std::vector<std::unique_ptr<gsort::RunView>>& views) {
  std::vector<const gsort::RunView*> runs;
  for (const auto& v : views) runs.push_back(v.get());
  return runs;
}

Merged merge_in_ranges(RunFiles& files, const gsort::KeyLayout& layout, gsort::ThreadPool& pool, size_t ranges,
                       const gsort::KeyLayout* unique_by, bool release = false) {
  gsort::RunDecoderPool decoders;
  const std::vector<std::unique_ptr<gsort::RunView>> views = files.views(decoders);
  const std::vector<const gsort::RunView*> runs = pointers(views);
  gsort::ParallelMergeOptions options;
  options.budget_bytes = uint64_t{64} << 20;
  options.ranges = ranges;
  options.unique_by = unique_by;
  options.sum_dropped = true;
  options.release_runs = release;
  options.release_all = release;
  std::atomic<uint64_t> read{0};
  options.bytes_read = &read;
  const gsort::ParallelMergePlan plan = gsort::plan_parallel_merge(runs, pool.size(), options);
  EXPECT_EQ(plan.refusal, "");
  std::string out(files.records() * kRs, '\0');
  Merged m;
  m.result = gsort::parallel_merge(runs, layout, pool, plan, options, reinterpret_cast<uint8_t*>(&out[0]));
  m.out = out.substr(0, m.result.kept * kRs);
  EXPECT_EQ(read.load(), files.records() * kRs) << "every record read once";
  return m;
}

uint64_t hash_sum(const std::string& records) {
  return gsort::hash_record_sum(records.data(), records.size() / kRs, kRs);
}

// Both merges of `files`, with and without -u: the same bytes.
void expect_identical(RunFiles& files, const gsort::KeyLayout& layout, gsort::ThreadPool& pool, size_t ranges) {
  const std::string all = files.merge_sequentially(pool, nullptr);
  for (const gsort::KeyLayout* unique_by : {static_cast<const gsort::KeyLayout*>(nullptr), &layout}) {
    SCOPED_TRACE(unique_by ? "-u" : "all records");
    const std::string expected = unique_by ? files.merge_sequentially(pool, unique_by) : all;
    const Merged m = merge_in_ranges(files, layout, pool, ranges, unique_by);
    EXPECT_GE(m.result.ranges, 1u);
    ASSERT_EQ(m.out.size(), expected.size());
    EXPECT_TRUE(m.out == expected) << "the parallel merge differs from the sequential merge";
    EXPECT_EQ(m.result.kept + m.result.dropped, files.records());
    EXPECT_EQ(m.result.dropped_hash_sum, hash_sum(all) - hash_sum(m.out)) << "what -u dropped, summed";
  }
}

const gsort::KeyLayout& u32_key(bool reverse) {
  static const gsort::KeyLayout forward({gsort::parse_key_spec("0:u32")}, kRs, false);
  static const gsort::KeyLayout backward({gsort::parse_key_spec("0:u32")}, kRs, true);
  return reverse ? backward : forward;
}

TEST(ParallelMerge, ByteIdenticalToTheSequentialMergeFromTwoTo500Runs) {
  gsort::ThreadPool pool(3);
  const gsort::KeyLayout& layout = u32_key(false);
  struct Case {
    size_t runs;
    uint64_t most;  // records per run, up to
  };
  for (const Case c : {Case{2, 9000}, Case{3, 5000}, Case{17, 2000}, Case{120, 300}, Case{500, 60}}) {
    for (const uint32_t distinct : {1u << 30, 5u, 1u}) {
      SCOPED_TRACE(std::to_string(c.runs) + " runs, " + std::to_string(distinct) + " keys");
      TempDir dir;
      Rng rng(c.runs * 7 + distinct);
      RunFiles files(dir, layout, Storage{});
      for (size_t r = 0; r < c.runs; ++r) files.add(rng.range(1, c.most), distinct, rng);
      expect_identical(files, layout, pool, 13);
    }
  }
}

TEST(ParallelMerge, ReverseAndTwoKeyLayoutsPlainAndCompressed) {
  gsort::ThreadPool pool(2);
  const gsort::KeyLayout two_keys({gsort::parse_key_spec("1:u8:desc"), gsort::parse_key_spec("12:u16be")}, kRs,
                                  false);
  for (const gsort::KeyLayout* layout : {&u32_key(true), &two_keys}) {
    for (const Storage storage : {Storage{false, 1}, Storage{true, 1}, Storage{false, 3}, Storage{true, 2}}) {
      SCOPED_TRACE(std::string(layout == &two_keys ? "two keys" : "-r") + (storage.compressed ? ", zstd" : "") +
                   ", " + std::to_string(storage.segments) + " segments");
      TempDir dir;
      Rng rng(storage.segments + (storage.compressed ? 10 : 0));
      RunFiles files(dir, *layout, storage);
      for (size_t r = 0; r < 9; ++r) files.add(rng.range(1, 3000), 40, rng);
      expect_identical(files, *layout, pool, 7);
    }
  }
}

TEST(ParallelMerge, OneRecordRuns) {
  gsort::ThreadPool pool(2);
  for (const bool compressed : {false, true}) {
    TempDir dir;
    Rng rng(41);
    RunFiles files(dir, u32_key(false), Storage{compressed, 1});
    for (size_t r = 0; r < 300; ++r) files.add(1, 4, rng);
    expect_identical(files, u32_key(false), pool, 11);
  }
}

TEST(ParallelMerge, MoreRangesThanRecordsAndOneRange) {
  gsort::ThreadPool pool(2);
  TempDir dir;
  Rng rng(43);
  RunFiles files(dir, u32_key(false), Storage{});
  for (size_t r = 0; r < 4; ++r) files.add(3, 1000, rng);
  expect_identical(files, u32_key(false), pool, 64);
  expect_identical(files, u32_key(false), pool, 1);
}

// Each range's part is freed once it and every range after it are merged
// (the ranges go from the last; on the release thread; all of it, with
// release_all) by cutting the runs' files short: the other ranges, reading
// the blocks or frames cut between them, still read every byte they need,
// and at the end each file keeps its header alone.
TEST(ParallelMerge, FreeingWhatTheRangesReadKeepsTheBytes) {
  gsort::ThreadPool pool(3);
  for (const bool compressed : {false, true}) {
    for (const unsigned segments : {1u, 3u}) {
      SCOPED_TRACE(std::string(compressed ? "zstd" : "plain") + ", " + std::to_string(segments) + " segments");
      TempDir dir;
      Rng rng(59);
      RunFiles files(dir, u32_key(false), Storage{compressed, segments});
      // 9.6 MB each (a quarter under the sanitizers: still 7 ranges of every run, each freed).
      for (size_t r = 0; r < 3; ++r) files.add(600000 / kSanitizerShare, 1u << 30, rng);
      const std::string expected = files.merge_sequentially(pool, nullptr);
      const Merged m = merge_in_ranges(files, u32_key(false), pool, 7, nullptr, true);
      EXPECT_TRUE(m.out == expected);
      for (size_t r = 0; r < files.runs(); ++r) {
        for (unsigned seg = 0; seg < segments; ++seg) {
          EXPECT_EQ(std::filesystem::file_size(files.segment_path(r, seg)), sizeof(gsort::RunHeader))
              << "run " << r << ", segment " << seg;
        }
      }
    }
  }
}

// The runs may be cut only below a tail of ranges that are all merged.
TEST(BackgroundRelease, TheRunsAreCutBelowTheMergedTailAlone) {
  gsort::MergeRanges ranges;
  ranges.cuts.assign(5, std::vector<uint64_t>());  // 4 ranges of no runs
  const std::vector<const gsort::RunView*> none;
  gsort::BackgroundRelease release(none, ranges);
  EXPECT_EQ(release.frontier(), 4u);
  release.merged(1);
  release.merged(2);
  EXPECT_EQ(release.frontier(), 4u) << "range 3 is not merged yet";
  release.merged(3);
  EXPECT_EQ(release.frontier(), 1u);
  release.merged(0);
  EXPECT_EQ(release.frontier(), 0u);
  release.stop(true);
}

// At stop() the cut under way is finished by the pool's threads beside the
// release thread, each segment file by one of them: every file of every run
// is cut, whichever thread took it.
TEST(BackgroundRelease, TheCutUnderWayAtStopIsFinishedWithThePool) {
  gsort::ThreadPool pool(4);
  TempDir dir;
  Rng rng(61);
  // Many files, so that the cut is still under way when stop() comes.
  constexpr unsigned kSegments = 8;
  RunFiles files(dir, u32_key(false), Storage{false, kSegments});
  for (size_t r = 0; r < 150; ++r) files.add(400, 1u << 30, rng);
  gsort::RunDecoderPool decoders;
  const std::vector<std::unique_ptr<gsort::RunView>> views = files.views(decoders);
  const std::vector<const gsort::RunView*> runs = pointers(views);
  // Two ranges, each run cut in half; both merged at once: one cut, to 0.
  gsort::MergeRanges ranges;
  ranges.cuts.assign(3, std::vector<uint64_t>(runs.size()));
  for (size_t r = 0; r < runs.size(); ++r) {
    ranges.cuts[1][r] = runs[r]->size() / 2;
    ranges.cuts[2][r] = runs[r]->size();
  }
  gsort::BackgroundRelease release(runs, ranges, &pool);
  release.merged(0);
  release.merged(1);
  // The cut has begun once the thread says so, or has ended (the files it cut first).
  while (!release.cutting() &&
         std::filesystem::file_size(files.segment_path(0, 0)) != sizeof(gsort::RunHeader)) {
    std::this_thread::yield();
  }
  release.stop();
  for (size_t r = 0; r < files.runs(); ++r) {
    for (unsigned seg = 0; seg < kSegments; ++seg) {
      ASSERT_EQ(std::filesystem::file_size(files.segment_path(r, seg)), sizeof(gsort::RunHeader))
          << "run " << r << ", segment " << seg;
    }
  }
  RecordProperty("files_cut_by_the_pool", std::to_string(release.files_cut_by_the_pool()));
}

// Flips one byte of `path` at `at`.
void flip(const std::string& path, uint64_t at) {
  std::string data = read_file(path);
  data[at] = static_cast<char>(data[at] ^ 0x20);
  write_file(path, data);
}

TEST(ParallelMerge, ADamagedBlockOrFrameIsADataErrorNamingTheRun) {
  gsort::ThreadPool pool(2);
  for (const bool compressed : {false, true}) {
    // Plain: a record byte in the middle, a byte of the block table;
    // compressed: a byte in the middle (inside a frame).
    for (const int where : {0, 1}) {
      if (compressed && where == 1) continue;
      SCOPED_TRACE(std::string(compressed ? "zstd" : "plain") + (where ? ", block table" : ", records"));
      TempDir dir;
      Rng rng(47);
      RunFiles files(dir, u32_key(false), Storage{compressed, 1});
      for (size_t r = 0; r < 5; ++r) files.add(20000, 1u << 30, rng);
      const std::string damaged = files.segment_path(3, 0);
      const uint64_t size = read_file(damaged).size();
      flip(damaged, where == 0 ? size / 2 : size - 5);
      try {
        merge_in_ranges(files, u32_key(false), pool, 9, nullptr);
        ADD_FAILURE() << "no error";
      } catch (const gsort::DataError& e) {
        EXPECT_NE(std::string(e.what()).find(damaged), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("corrupted"), std::string::npos) << e.what();
      }
    }
  }
}

TEST(ParallelMerge, ThePlanRefusesWhatTheBudgetCannotHold) {
  TempDir dir;
  Rng rng(53);
  RunFiles files(dir, u32_key(false), Storage{});
  for (size_t r = 0; r < 8; ++r) files.add(150000, 1u << 30, rng);
  gsort::RunDecoderPool decoders;
  const std::vector<std::unique_ptr<gsort::RunView>> views = files.views(decoders);
  const std::vector<const gsort::RunView*> runs = pointers(views);
  gsort::ParallelMergeOptions options;
  options.budget_bytes = uint64_t{64} << 20;
  EXPECT_EQ(gsort::plan_parallel_merge(runs, 4, options).refusal, "");
  EXPECT_EQ(gsort::plan_parallel_merge(runs, 4, options).workers, 4u);
  const uint64_t block = views.front()->least_buffer_bytes();
  options.budget_bytes = 8 * block * 3 / 2;  // one thread's buffers, not two
  const gsort::ParallelMergePlan tight = gsort::plan_parallel_merge(runs, 4, options);
  EXPECT_NE(tight.refusal, "");
  options.ranges = 5;  // a test's ranges: one thread will do
  EXPECT_EQ(gsort::plan_parallel_merge(runs, 4, options).refusal, "");
  EXPECT_EQ(gsort::plan_parallel_merge(runs, 4, options).workers, 1u);
  options.budget_bytes = 8 * block / 2;  // not even one
  EXPECT_NE(gsort::plan_parallel_merge(runs, 4, options).refusal, "");
}

}  // namespace
}  // namespace gsort_test
