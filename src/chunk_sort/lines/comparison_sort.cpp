#include "src/chunk_sort/lines/comparison_sort.h"

#include <algorithm>

namespace gsort {
namespace {

// How many of the first p entries of the stable merge of a[0, na) and
// b[0, nb) (a's first on a tie) come from a: the merge path's co-rank.
template <typename Less>
uint64_t from_first(const KeyEntry* a, uint64_t na, const KeyEntry* b, uint64_t nb, uint64_t p, const Less& less) {
  uint64_t lo = p > nb ? p - nb : 0, hi = std::min(p, na);
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (!less(b[p - mid - 1], a[mid])) {
      lo = mid + 1;  // a[mid] comes before b[p - mid - 1]: more of a
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

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
  // round (a merge takes the first piece's entry on a tie: stable).
  const auto at = [&](size_t piece) { return split_point(n, pieces, std::min(piece, pieces)); };
  pool->parallel_for(pieces, [&](size_t p) { std::stable_sort(e + at(p), e + at(p + 1), less); });
  KeyEntry* from = e;
  KeyEntry* to = tmp;
  for (size_t width = 1; width < pieces; width *= 2) {
    // Each pair's merge in parts of its output, found by co-rank, so that
    // the last rounds' few merges also take every thread.
    const size_t pairs = (pieces + 2 * width - 1) / (2 * width);
    const size_t parts = (pool->balanced_task_count() + pairs - 1) / pairs;
    pool->parallel_for(pairs * parts, [&](size_t task) {
      const size_t first = 2 * width * (task / parts), part = task % parts;
      const uint64_t a0 = at(first), b0 = at(first + width), end = at(first + 2 * width);
      const uint64_t na = b0 - a0, nb = end - b0;
      const uint64_t p = split_point(na + nb, parts, part), q = split_point(na + nb, parts, part + 1);
      const uint64_t i = from_first(from + a0, na, from + b0, nb, p, less);
      const uint64_t k = from_first(from + a0, na, from + b0, nb, q, less);
      std::merge(from + a0 + i, from + a0 + k, from + b0 + (p - i), from + b0 + (q - k), to + a0 + p, less);
    });
    std::swap(from, to);
  }
  if (from != e) std::copy(from, from + n, e);
}

}  // namespace gsort
