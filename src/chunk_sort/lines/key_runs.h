// The runs a tie refinement works on (tie_refine.h): segments of entries
// whose images tie so far, found on the pool's threads; and, for a
// collated key (whose image is a head that leaves ties to the
// comparison), the key's own comparison, by which its tied lines are
// sorted and cut into runs of equal keys that the next key refines.
#pragma once

#include <cstdint>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/entries/key_entry.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_image.h"
#include "src/keys/line_orders.h"

namespace gsort {

struct TieSegment {
  uint64_t begin = 0;
  uint64_t size = 0;
  uint64_t depth = 0;  // the members' image words [0, depth) are equal ...
  uint32_t level = 0;  // ... in the image of this key (and all keys before it are equal)
};

// The runs of two or more equal prefixes in e[0, n), as segments at
// `depth` and `level` (offset by `base`), found on the pool's threads.
std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base = 0,
                                  uint32_t level = 0);

// Tasks for n entries on the pool: one per 4096 entries, at most its balanced count.
size_t refine_tasks(ThreadPool& pool, uint64_t n);

// Sorts e[0, n) stably by the collated key `image` alone, keys[i] being
// e[i]'s key (tmp: scratch; pool null: on this thread), and sets each
// entry's prefix to its run of equal keys' number.
void sort_into_key_runs(ThreadPool* pool, const LineImageSpec& image, const KeyBytes* keys, KeyEntry* e,
                        KeyEntry* tmp, uint64_t n);

// Sorts e[0, n) stably by their lines' heads at a collated level (`image`:
// three words each, strxfrm run once a line) and sets each entry's prefix
// to its run of equal heads' number (pool null: on this thread).
void sort_by_heads(ThreadPool* pool, const LineImageSpec& image, const LineSpan& lines, KeyEntry* e, KeyEntry* tmp,
                   uint64_t n);

// Words of a head (kImageHeadBytes, big-endian, zero-padded).
constexpr uint64_t kHeadWords = (kImageHeadBytes + 7) / 8;
// The same with the heads read already: words[kHeadWords * i ...] for e[i].
void sort_by_given_heads(ThreadPool* pool, const uint64_t* words, KeyEntry* e, KeyEntry* tmp, uint64_t n);

}  // namespace gsort
