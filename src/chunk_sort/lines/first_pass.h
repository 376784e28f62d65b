// The CPU sorter's first pass over a chunk's lines, in memory order, on all
// threads: each line's first key found once, its image words 0, 1 and 2
// taken (and, when the comparison has a second level, word 0 of that), the
// key's place kept for the ties (tie_refine.h's LineCache); then the 96
// bits each line is sorted by first, chosen so that as few lines as can be
// are left tied:
//  - the bits that vary over the chunk of the first image's words 0, 1 and
//    2, end to end, the first 96 of them, by default (a date at the start
//    of log lines takes none; text of seven varying bits a byte fits 13
//    bytes where whole words fit 12);
//  - the varying bits of word 0, then as many of the next level's word 0's
//    varying bits as fit, when every first image fits word 0 and tells
//    equal keys exactly (numbers of a few digits, short words without a
//    trailing NUL): a first key of a few distinct words leaves most of the
//    96 bits to the next key; lines whose first keys tie go on to the next
//    key, or to the last-resort whole line.
// A key that is the whole line as it is (or reversed) has its words read
// straight from the line, no view of its key made.
#pragma once

#include <cstdint>

#include "src/algo/line_index.h"
#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/lines/tie_refine.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"

namespace gsort {

// Where lines whose 96 bits tie are refined from.
struct TieStart {
  uint64_t depth = 0;
  uint32_t level = 0;
  bool settled = false;  // nothing to refine: equal bits are equal lines (input order)
};

// Whether first_pass fills the cache from end to end (else the refiner
// touches the entries of the few lines that tie, here and there).
bool first_pass_fills_cache(const LineSpec& spec);

// Fills entries[0, n) (and cache[0, n) with the first key's words 1 and
// 2, as `*cached` says): spare holds n entries of scratch. Returns where
// ties are refined from.
TieStart first_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines, WideEntry* entries,
                    WideEntry* spare, LineCache* cache, CachedWords* cached);

}  // namespace gsort
