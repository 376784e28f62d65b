// Merge path: where the first `diagonal` outputs of a stable merge of two
// sorted sequences split between them. Returns i such that the merge's first
// `diagonal` elements are a[0..i) and b[0..diagonal-i). On ties a's elements
// come first, which keeps a merge of an earlier run (a) with a later run (b)
// stable. `less(x, y)` is the strict order (default: x < y). The search runs
// in the diagonal's type, so device code merging 32-bit positions stays in
// 32-bit arithmetic. Usable from host and device code (the CPU backend, the
// GPU backend's host merge, and the own merge-sort kernels share it).
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"

namespace gsort {

struct NaturalLess {
  template <typename T>
  GSORT_HD bool operator()(const T& x, const T& y) const {
    return x < y;
  }
};

template <typename A, typename LenA, typename B, typename LenB, typename Diag, typename Less = NaturalLess>
GSORT_HD Diag merge_path(const A& a, LenA a_len, const B& b, LenB b_len, Diag diagonal, Less less = Less()) {
  const Diag na = static_cast<Diag>(a_len), nb = static_cast<Diag>(b_len);
  Diag lo = diagonal > nb ? diagonal - nb : Diag(0);
  Diag hi = diagonal < na ? diagonal : na;
  while (lo < hi) {
    const Diag mid = lo + (hi - lo) / 2;
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
