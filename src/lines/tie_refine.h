// Settling the ties left by a radix sort of image words: the entries of a
// tied segment share their image words 0 .. depth-1 and are in line index
// order. Each segment is sorted by its next word (radix), and what still
// ties by the word after, until the images are spent (every member's
// image ends before the word): those lines go to the full comparison,
// stably. The result is the order of the full comparison, ties by line
// index, whatever the words tied on (line_image.h's property).
//
// Large segments (a common prefix shared by much of the chunk) are
// refined with all threads a step at a time; the others one per thread.
#pragma once

#include <cstdint>
#include <vector>

#include "src/chunk_sort/cpu/key_entry.h"
#include "src/core/thread_pool.h"
#include "src/lines/line_compare.h"
#include "src/lines/line_index.h"

namespace gsort {

struct TieSegment {
  uint64_t begin = 0;
  uint64_t size = 0;
  uint64_t depth = 0;  // the members' image words [0, depth) are equal
};

// The runs of two or more equal prefixes in e[0, n), as segments at
// `depth` (offset by `base`), found on the pool's threads.
std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base = 0);

class TieRefiner {
 public:
  TieRefiner(const LineSpec& spec, const LineSpan& lines, ThreadPool& pool);

  // Sorts every segment of e fully (tmp: scratch as large as e).
  void refine(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments);

 private:
  // Loads word `depth` of each member's image into its prefix; returns the
  // longest image among them.
  uint64_t load_words(KeyEntry* e, uint64_t n, uint64_t depth) const;
  uint64_t load_words_parallel(KeyEntry* e, uint64_t n, uint64_t depth);
  // Stable sort by the full comparison (the images are spent).
  void sort_by_comparator(KeyEntry* e, uint64_t n) const;
  void refine_one(KeyEntry* e, KeyEntry* tmp, const TieSegment& segment) const;
  void refine_large(KeyEntry* e, KeyEntry* tmp, TieSegment segment, std::vector<TieSegment>& small);

  LineComparator compare_;
  LineImageSpec image_;
  const LineSpan& lines_;
  ThreadPool& pool_;
};

}  // namespace gsort
