// Merging sorted runs of KeyEntry (prefix, index) of one chunk: pairwise,
// round by round, each pair's output split among the pool's threads by merge
// path. Ties past the prefix are settled by comparing the records; equal
// keys take the earlier run first, so runs in index order merge stably.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/chunk_sort/entries/key_entry.h"

namespace gsort {

// Strict order of two entries of a chunk whose records start at `records`.
inline bool entry_less(const KeyLayout& layout, const uint8_t* records, const KeyEntry& x, const KeyEntry& y) {
  if (x.prefix != y.prefix) return x.prefix < y.prefix;
  if (layout.prefix_is_whole_key()) return false;
  const uint32_t rs = layout.record_size();
  return layout.compare_after_prefix(records + uint64_t{x.index} * rs, records + uint64_t{y.index} * rs) < 0;
}

// Runs are entries[bounds[r] .. bounds[r+1]); `scratch` has room for all.
// Returns the buffer (entries or scratch) that holds the merged result.
const KeyEntry* merge_entry_runs(ThreadPool& pool, const KeyLayout& layout, const uint8_t* records,
                                 KeyEntry* entries, KeyEntry* scratch, std::vector<size_t> bounds);

}  // namespace gsort
