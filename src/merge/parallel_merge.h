// The final merge on every core: the runs are cut into key ranges
// (range_split.h), and the pool's threads each merge one range at a time,
// of every run, straight into the range's place in the mapped output
// (range_worker.h). No producer thread, no batch buffer, no copy between the
// runs and the output but the merge's own. Ranges are handed out as the
// threads come free, a few per thread, so that a slow range does not hold
// the rest. The output is byte for byte the sequential merge's.
//
// Memory: each thread that merges holds a read buffer per run (at least a
// block or frame of it); the threads, the buffers and the samples the
// split reads share the merge's budget. Where the budget cannot give two
// threads their buffers, or the output is too small to be worth cutting,
// the plan says so and the run merger (run_merger.h) does the merge.
//
// With -u the ranges cut only where the key changes; each range is merged
// where it would start if nothing were dropped, and the ranges are then
// moved together (src/algo/close_gaps.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "io/run/run_view.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/merge/merge_cut_ranges.h"

namespace gsort {

struct ParallelMergeOptions {
  uint64_t budget_bytes = 0;            // the merge's memory
  const KeyLayout* unique_by = nullptr;  // -u
  bool sum_dropped = false;             // sum the hashes of what -u drops (--verify)
  std::atomic<uint64_t>* bytes_read = nullptr;  // advanced as the runs are read
  // Free what is merged as it goes, on a thread of its own
  // (background_release.h): for runs deleted after the merge.
  bool release_runs = false;
  // Every range's part freed before the merge returns, not only what the
  // release thread reached (tests).
  bool release_all = false;
  size_t ranges = 0;  // a test's number of ranges, taken wherever memory allows; 0: as the sizes say
};

struct ParallelMergePlan {
  std::string refusal;  // why the merge is not done this way; empty: it is
  size_t ranges = 0;      // wanted (the split may find fewer)
  unsigned workers = 0;   // threads merging at once
  uint64_t buffer_bytes = 0;  // each worker's read buffer per run
};

ParallelMergePlan plan_parallel_merge(const std::vector<const RunView*>& runs, unsigned threads,
                                      const ParallelMergeOptions& options);

// What the plan needs of a run, for merges of runs that are not all views
// (the lines' runs held in the GPU's memory, src/merge/merge_run.h).
struct MergeRunShape {
  uint64_t bytes = 0;
  uint64_t least_buffer_bytes = 1;  // a block or frame
  uint64_t index_bytes = 0;         // memory the run's reader holds (a frame index)
  bool compressed = false;
};
ParallelMergePlan plan_parallel_merge(const std::vector<MergeRunShape>& runs, unsigned threads,
                                      const ParallelMergeOptions& options);

// The merge of the cut ranges' figures (merge_cut_ranges.h), and the cut's.
struct ParallelMergeResult : CutRangesResult {
  size_t ranges = 0;
  double split_s = 0;
};

// Merges `runs` into out[0, sum of their records x record size), as
// `plan` (not refused) says.
ParallelMergeResult parallel_merge(const std::vector<const RunView*>& runs, const KeyLayout& layout,
                                   ThreadPool& pool, const ParallelMergePlan& plan,
                                   const ParallelMergeOptions& options, uint8_t* out);

}  // namespace gsort
