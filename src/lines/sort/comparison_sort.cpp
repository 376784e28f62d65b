#include "src/lines/sort/comparison_sort.h"

#include <algorithm>

namespace gsort {

void sort_by_comparison(ThreadPool* pool, const LineComparator& compare, const LineSpan& lines, KeyEntry* e,
                        KeyEntry* tmp, uint64_t n) {
  const auto less = [&](const KeyEntry& x, const KeyEntry& y) {
    return compare.compare(lines.line(x.index), lines.length(x.index), lines.line(y.index), lines.length(y.index)) < 0;
  };
  if (std::is_sorted(e, e + n, less)) return;
  const size_t pieces = pool ? std::min<uint64_t>(pool->balanced_task_count(), n >> 12) : 1;
  if (pieces <= 1) {
    std::stable_sort(e, e + n, less);
    return;
  }
  // Pieces sorted on the pool's threads, then merged in pairs, round by
  // round (std::merge takes the first piece's entry on a tie: stable).
  const auto at = [&](size_t piece) { return split_point(n, pieces, std::min(piece, pieces)); };
  pool->parallel_for(pieces, [&](size_t p) { std::stable_sort(e + at(p), e + at(p + 1), less); });
  KeyEntry* from = e;
  KeyEntry* to = tmp;
  for (size_t width = 1; width < pieces; width *= 2) {
    pool->parallel_for((pieces + 2 * width - 1) / (2 * width), [&](size_t m) {
      const size_t first = 2 * width * m;
      std::merge(from + at(first), from + at(first + width), from + at(first + width), from + at(first + 2 * width),
                 to + at(first), less);
    });
    std::swap(from, to);
  }
  if (from != e) std::copy(from, from + n, e);
}

}  // namespace gsort
