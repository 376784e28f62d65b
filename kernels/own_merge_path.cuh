// Merge path: where the diagonal `diag` of the merge of two sorted ranges
// crosses the path. Returns how many of the first `diag` outputs of a stable
// merge come from `a` (ties take `a` first); the rest, diag - result, come
// from `b`. Host and device code; counts are 64-bit when Index is.
#pragma once

#include <cstdint>

#ifndef __CUDACC__
#define OWN_HD
#else
#define OWN_HD __host__ __device__
#endif

namespace gsort::own {

template <typename AIt, typename BIt, typename Index>
OWN_HD inline Index merge_path(AIt a, Index a_len, BIt b, Index b_len, Index diag) {
  Index lo = diag > b_len ? diag - b_len : Index(0);
  Index hi = diag < a_len ? diag : a_len;
  while (lo < hi) {
    Index mid = lo + (hi - lo) / 2;
    // a[mid] goes out before b[diag - 1 - mid] unless b is strictly smaller.
    if (b[diag - 1 - mid] < a[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

}  // namespace gsort::own
