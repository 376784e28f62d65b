// The CPU sorter's first pass over a chunk's lines, in memory order, on all
// threads: each line's first key found once, its image words 0, 1 and 2
// taken (and, when the comparison has a second level, word 0 of that), the
// key's place kept for the ties (tie_refine.h's LineCache); then the 96
// bits each line is sorted by first, chosen so that as few lines as can be
// are left tied:
//  - word 0 and the top bits of word 1 of the first image, by default;
//  - words 1 and 2 when word 0 is the same for every line (a date at the
//    start of log lines);
//  - the varying bits of word 0, then as many of the next level's word 0's
//    varying bits as fit, when every first image fits word 0 and tells
//    equal keys exactly (numbers of a few digits, short words without a
//    trailing NUL): a first key of a few distinct words leaves most of the
//    96 bits to the next key; lines whose first keys tie go on to the next
//    key, or to the last-resort whole line.
// Only the bits that vary over the chunk are kept of the 32 (and, in the
// last case, of the first key's word too).
#pragma once

#include <cstdint>

#include "src/core/thread_pool.h"
#include "src/lines/keys/key_spec.h"
#include "src/lines/sort/index.h"
#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/lines/sort/tie_refine.h"

namespace gsort {

// Where lines whose 96 bits tie are refined from.
struct TieStart {
  uint64_t depth = 0;
  uint32_t level = 0;
  bool settled = false;  // nothing to refine: equal bits are equal lines (input order)
};

// Fills entries[0, n) (and cache[0, n) with the first key's words 1 and
// 2, as `*cached` says): spare holds n entries of scratch. Returns where
// ties are refined from.
TieStart first_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines, WideEntry* entries,
                    WideEntry* spare, LineCache* cache, CachedWords* cached);

}  // namespace gsort
