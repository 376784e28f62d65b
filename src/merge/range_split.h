// The parallel merge's key ranges (parallel_merge.h): cuts through every
// run such that range p holds records [cuts[p][r], cuts[p+1][r]) of run r,
// and every record of range p sorts before every record of range p+1 in
// the merge's total order: by key, then run number, then place in the run.
// That order is the sequential merge's (ties go to the earlier run, then
// the earlier record), so merging each range on its own and laying the
// ranges end to end writes the sequential merge's bytes.
//
// The splitters come from samples (range_cuts.h): records at evenly spaced
// places of each run, sorted, taken at even shares of the records they
// stand for. Each run's cut for a splitter is then exact: the number of its
// records that sort before the splitter, found by binary search in the
// run. With -u the
// ranges cut only where the key changes (every record of one key in one
// range), so that the records -u drops are decided inside a range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/run/sorted_records.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/merge/range_cuts.h"

namespace gsort {

struct SplitOptions {
  size_t ranges = 1;  // wanted; fewer where splitters coincide
  // -u: equal keys stay in one range.
  bool whole_keys = false;
  // Memory the samples may take (their records).
  uint64_t sample_bytes = uint64_t{16} << 20;
};

// Cuts `runs` (each sorted by `layout`, in the merge's order) into ranges;
// the runs are read (samples, binary searches) on the pool's threads. No
// range is empty (no records: no ranges).
MergeRanges split_ranges(const std::vector<const SortedRecords*>& runs, const KeyLayout& layout,
                         const SplitOptions& options, ThreadPool& pool);

}  // namespace gsort
