// Merge path: where the first `diagonal` outputs of a stable merge of two
// sorted sequences split between them. Returns i such that the merge's first
// `diagonal` elements are a[0..i) and b[0..diagonal-i). On ties a's elements
// come first, which keeps a merge of an earlier run (a) with a later run (b)
// stable. `less(x, y)` is the strict order. Usable from host and device code.
#pragma once

#include <cstdint>

#include "keys/key_field.h"  // GSORT_HD

namespace gsort {

template <typename A, typename B, typename Less>
GSORT_HD uint64_t merge_path(const A& a, uint64_t a_len, const B& b, uint64_t b_len, uint64_t diagonal,
                             Less less) {
  uint64_t lo = diagonal > b_len ? diagonal - b_len : 0;
  uint64_t hi = diagonal < a_len ? diagonal : a_len;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    // a[mid] belongs in the first `diagonal` unless b[diagonal-1-mid] sorts
    // strictly before it.
    if (less(b[diagonal - 1 - mid], a[mid])) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace gsort
