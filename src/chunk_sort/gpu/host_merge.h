// Merging the sorted groups of one chunk on the host, for chunks larger than
// the device holds at once. Each group arrives as its sorted chunk indices
// and the sorted keys of its last sort pass (the whole key, or the key's
// first 8 normalised bytes); ties past those keys are settled by comparing
// the records, and equal keys keep index order: groups cover ascending
// index ranges, and the merge takes from the earlier group on ties.
//
// The merge is pairwise, round by round; each pair's output is split among
// the pool's threads by merge path.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort::gpu {

template <typename P>
struct SortedRun {
  const uint32_t* order = nullptr;  // chunk indices, sorted
  const P* keys = nullptr;          // their sort keys, sorted
  uint64_t size = 0;
};

// What settles ties between equal keys when the keys are only a prefix.
struct RecordTieBreak {
  const KeyLayout* layout = nullptr;
  const uint8_t* records = nullptr;  // the chunk (host)
  bool keys_are_whole = true;        // true: equal keys mean equal records' keys
};

// Merges `runs` (in chunk-index order) into order[0 .. total).
template <typename P>
void merge_sorted_runs(ThreadPool& pool, const std::vector<SortedRun<P>>& runs, const RecordTieBreak& ties,
                       uint32_t* order);

extern template void merge_sorted_runs<uint16_t>(ThreadPool&, const std::vector<SortedRun<uint16_t>>&,
                                                 const RecordTieBreak&, uint32_t*);
extern template void merge_sorted_runs<uint32_t>(ThreadPool&, const std::vector<SortedRun<uint32_t>>&,
                                                 const RecordTieBreak&, uint32_t*);
extern template void merge_sorted_runs<uint64_t>(ThreadPool&, const std::vector<SortedRun<uint64_t>>&,
                                                 const RecordTieBreak&, uint32_t*);

}  // namespace gsort::gpu
