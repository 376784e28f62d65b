// Run merging: as many passes as the fan-in needs. While more runs are
// pending than one merge can take, groups of them are merged into new
// runs; the last pass merges what is left into the destination. Merges
// into runs are the run merger's (run_merger.h); the last is split into
// key ranges merged on every core (parallel_merge.h) where the destination
// is mapped, else the run merger's too; so are merges into runs, where the
// runs are plain and in the page cache. Run files are deleted as soon as
// their merge is done, except the final merge's in ranges: those are handed
// back, to be deleted once the output is committed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/merge/group_merger.h"
#include "src/merge/merge_limits.h"
#include "src/merge/parallel_merge.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/output/final_output.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// What the merges of one sort take.
struct MergeSetup {
  const KeyLayout& layout;
  SortBackend& backend;  // orders each batch
  ThreadPool& pool;
  const Log& log;
  MergeLimits limits;
  MergeWindows windows;
  // Called before a merge writes a run: settles how runs are written where
  // nothing did before (--merge, whose runs have no chunk to sample).
  std::function<void()> before_run;
};

// The merges of one sort: into runs (early, run_stack.h, or in passes) and
// into the destination. Their times and counts go to `report`.
class RunMerges final : public GroupMerger {
 public:
  RunMerges(MergeSetup setup, TempRuns& runs, SortReport& report);
  RunMerges(const RunMerges&) = delete;
  RunMerges& operator=(const RunMerges&) = delete;

  const MergeLimits& limits() const override { return setup_.limits; }
  const Log& log() const override { return setup_.log; }
  PendingSource merge_to_run(std::vector<PendingSource> group) override;

  // pending: spilled runs in the order they were formed, or the inputs of
  // --merge; at most limits().max_open_runs of them runs. Merged in passes
  // into runs while more than the fan-in are left, then into a writer of
  // `out` (made when the final merge begins). progress_total: the record
  // bytes every pass reads, for the progress line and the size of the
  // output's writer (0: unknown). Returns the runs the final merge read
  // where it merged in ranges, for the caller to remove (TempRuns::remove)
  // after the commit: their cached pages take long to free.
  [[nodiscard]] std::vector<PendingSource> merge_all(std::vector<PendingSource> pending, FinalOutput& out,
                                                     ProgressMeter& meter, uint64_t progress_total);

 private:
  void merge_group(std::vector<PendingSource>& group, OutputWriter& out);
  // What orders the batches of a merge that reads a held run: the host,
  // since that run holds the device until it is read.
  SortBackend& host_order();
  // The final merge on every core (parallel_merge.h), where the sources are
  // runs and the destination can be mapped whole (`bytes` long); false,
  // with nothing written, where the run merger is to do it.
  bool merge_in_ranges(std::vector<PendingSource>& group, FinalOutput& out, uint64_t bytes);
  // A merge into a run on every core (merge_to_run_in_ranges.cpp), where
  // the sources are plain runs in the page cache; false, with nothing
  // written, where the run merger is to do it.
  bool merge_to_run_in_ranges(std::vector<PendingSource>& group, PendingSource& merged);
  // A group of runs opened to be read by range, for both merges in ranges:
  // views[i] is group[i]'s; `runs` the same, as parallel_merge takes them.
  struct RangeViews {
    std::vector<std::unique_ptr<RunView>> views;
    std::vector<const RunView*> runs;
    uint64_t records = 0;
  };
  RangeViews view_runs(std::vector<PendingSource>& group);
  // A merge in ranges of runs deleted after it: what each range read is
  // freed as it is done (src/merge/background_release.h).
  ParallelMergeOptions range_merge_options();

  const MergeSetup setup_;
  TempRuns& runs_;
  SortReport& report_;
  int deepest_level_ = 0;  // of any run merged so far
  std::atomic<uint64_t> merged_bytes_{0};  // read by the merges
  std::unique_ptr<SortBackend> host_order_;
};

}  // namespace gsort
