// Sorted pieces of one chunk's entries merged into its order in one pass,
// on every thread: the pieces are cut into key ranges at splitters sampled
// from them, each range is merged by a loser tree on one of the pool's
// threads, and each prefix of the order is reported (ready) as soon as the
// ranges up to it are done. Equal keys keep index order (stable).
#pragma once

#include <cstdint>
#include <vector>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Piece p is entries[bounds[p], bounds[p+1]), sorted stably by key, its
// indexes pointing into `records`; the pieces hold ascending indexes, piece
// by piece. Writes order[0, bounds.back()) and calls `ready` with growing
// prefixes, the last bounds.back() (from the pool's threads, one at a time).
void merge_sorted_pieces(ThreadPool& pool, const KeyLayout& layout, const uint8_t* records, const KeyEntry* entries,
                         const std::vector<uint64_t>& bounds, uint32_t* order, const OrderProgress& ready);

}  // namespace gsort
