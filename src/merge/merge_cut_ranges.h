// A final merge's ranges, once cut (records: range_split.h; lines:
// line_range_cut.h), merged straight into their places in one mapped
// output on the pool's threads, whatever the unit (range_worker.h with
// record_unit.h or line_unit.h; ranges_in_place.h hands the ranges out),
// the runs in files freed behind them (background_release.h). With -u each
// range is merged where it would start if nothing were dropped, and the
// ranges are then moved together (src/algo/close_gaps.h). Written once for
// the records' parallel_merge (parallel_merge.h) and the lines'
// (src/lines/merge_in_ranges.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "io/run/run_view.h"
#include "src/core/thread_pool.h"
#include "src/merge/merge_run.h"
#include "src/merge/range_cuts.h"
#include "src/merge/range_worker.h"
#include "src/merge/ranges_in_place.h"

namespace gsort {

struct CutRangesOptions {
  unsigned workers = 1;
  RangeWorkerOptions worker;                    // read buffers, -u, --verify's sum of what -u drops
  std::atomic<uint64_t>* bytes_read = nullptr;  // advanced as the runs are read
  // The runs in files, the first of the merge's, freed behind it (empty: none).
  std::vector<const RunView*> release;
  bool release_all = false;  // every range's part freed before the merge returns (tests)
  // Each range's pages dropped from the mapping once written, and
  // `written` advanced by its room (not under -u: its gaps are closed after).
  bool drop_written = false;
  std::atomic<uint64_t>* written = nullptr;
  uint64_t close_bytes = 0;  // the memory closing -u's gaps may take
};

struct CutRangesResult {
  uint64_t kept = 0;   // units at the front of the output
  uint64_t bytes = 0;  // the bytes they take
  uint64_t dropped = 0, dropped_hash_sum = 0;
  double merge_s = 0, close_s = 0;
  double release_s = 0;       // summed over the threads, freeing what was read
  double release_wait_s = 0;  // waiting for the background release to stop
  // Summed over the threads: merging ranges (and of that reading and
  // checking the runs), and making the output's pages present.
  double busy_s = 0, read_s = 0, present_s = 0;
};

// Merges range p of `ranges` into out + its first unit's place (ranges'
// units of `unit_bytes`), each worker with its own merge from `make`.
CutRangesResult merge_cut_ranges(ThreadPool& pool, const MergeRanges& ranges, uint32_t unit_bytes,
                                 const std::function<MergeRange()>& make, const CutRangesOptions& options,
                                 uint8_t* out);

// The same, each worker a RangeWorker<Unit> over `runs`.
template <typename Unit>
CutRangesResult merge_cut_ranges(ThreadPool& pool, const std::vector<const MergeRun*>& runs, const MergeRanges& ranges,
                                 uint32_t unit_bytes, const Unit& unit, const CutRangesOptions& options, uint8_t* out) {
  const auto make = [&]() -> MergeRange {
    auto w = std::make_shared<RangeWorker<Unit>>(runs, unit, options.worker);
    std::atomic<uint64_t>* read = options.bytes_read;
    return [&ranges, w, read](size_t p, uint8_t* at) { return w->merge(ranges.cuts[p], ranges.cuts[p + 1], at, read); };
  };
  return merge_cut_ranges(pool, ranges, unit_bytes, make, options, out);
}

}  // namespace gsort
