// Block-level pieces of gsort's merge sort of (u64 key, u32 value) pairs:
//   thread_sort_network    - stable sort of a thread's ITEMS keys in registers
//   cta_block_sort_by_rank - sorts a tile in shared memory: runs double in
//                            length, and every element finds its place in the
//                            merged run by binary search in the other run
//   cta_merge_ranges       - stable merge of two sorted global ranges (at most
//                            one tile together) through shared memory
//
// Stability: an element of the left run goes before equal keys of the right
// run (lower bound: count of keys < x); an element of the right run goes
// after equal keys of the left run (upper bound: count of keys <= x).
#pragma once

#include <cstdint>

#include "src/algo/merge_path.h"

namespace gsort::kernels {

template <int BLOCK_, int ITEMS_, int MIN_BLOCKS_ = 1>
struct MergePolicy {
  static constexpr int BLOCK = BLOCK_;            // threads per block
  static constexpr int ITEMS = ITEMS_;            // pairs per thread (odd: no bank conflicts)
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // resident blocks per SM asked of the compiler
  static constexpr int TILE = BLOCK * ITEMS;
  static_assert((BLOCK & (BLOCK - 1)) == 0 && BLOCK >= 32 && BLOCK <= 1024,
                "BLOCK must be a power of two (runs double up to one tile)");
};

template <class P>
struct MergeTileSmem {
  uint64_t keys[P::TILE];
  uint32_t values[P::TILE];
};

// Stable in-register sort (odd-even transposition: adjacent swaps of strict
// inversions only, so equal keys never pass each other).
template <int ITEMS, typename K, typename V>
__device__ __forceinline__ void thread_sort_network(K (&k)[ITEMS], V (&v)[ITEMS]) {
#pragma unroll
  for (int round = 0; round < ITEMS; ++round) {
#pragma unroll
    for (int i = round & 1; i + 1 < ITEMS; i += 2) {
      if (k[i + 1] < k[i]) {
        const K tk = k[i];
        k[i] = k[i + 1];
        k[i + 1] = tk;
        const V tv = v[i];
        v[i] = v[i + 1];
        v[i + 1] = tv;
      }
    }
  }
}

// Number of a[0, len) strictly below x (lo: a known lower limit of it).
template <typename K>
__device__ __forceinline__ uint32_t count_less(const K* a, uint32_t lo, uint32_t len, K x) {
  uint32_t hi = len;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) >> 1;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Number of a[0, len) at or below x (lo: a known lower limit of it).
template <typename K>
__device__ __forceinline__ uint32_t count_not_greater(const K* a, uint32_t lo, uint32_t len, K x) {
  uint32_t hi = len;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) >> 1;
    if (x < a[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// On entry each thread holds tile elements [tid*ITEMS, tid*ITEMS + ITEMS) in
// k/v (any order). On return s holds the whole tile stably sorted, visible to
// all threads (this ends with a barrier). The caller must have synchronised
// since its last read of s.
template <class P>
__device__ void cta_block_sort_by_rank(uint64_t (&k)[P::ITEMS], uint32_t (&v)[P::ITEMS],
                                       MergeTileSmem<P>& s) {
  thread_sort_network<P::ITEMS>(k, v);
  const uint32_t first = uint32_t(threadIdx.x) * P::ITEMS;
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    s.keys[first + i] = k[i];
    s.values[first + i] = v[i];
  }
  for (uint32_t run = P::ITEMS; run < uint32_t(P::TILE); run *= 2) {
    __syncthreads();  // s holds sorted runs of length `run`
    // My items all lie in one run (runs are multiples of ITEMS long).
    const uint32_t pair = first / (2 * run) * (2 * run);
    const bool right = first - pair >= run;
    const uint64_t* other = s.keys + (right ? pair : pair + run);
    const uint32_t mine = first - (right ? pair + run : pair);  // my first item's place in its run
    uint32_t dst[P::ITEMS];
    uint32_t r = 0;  // ranks only grow along my sorted items
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      r = right ? count_not_greater(other, r, run, k[i]) : count_less(other, r, run, k[i]);
      dst[i] = pair + mine + i + r;
    }
    __syncthreads();  // everyone has searched
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      s.keys[dst[i]] = k[i];
      s.values[dst[i]] = v[i];
    }
    __syncthreads();
    if (2 * run < uint32_t(P::TILE)) {
#pragma unroll
      for (int i = 0; i < P::ITEMS; ++i) {
        k[i] = s.keys[first + i];
        v[i] = s.values[first + i];
      }
    }
  }
}

// Stable merge of a[0, na) and b[0, nb) (na + nb <= TILE, global memory)
// into out[0, na + nb). All threads call it. It ends with a barrier, so
// calls may follow each other directly.
template <class P>
__device__ void cta_merge_ranges(const uint64_t* a_keys, const uint32_t* a_vals, uint32_t na,
                                 const uint64_t* b_keys, const uint32_t* b_vals, uint32_t nb,
                                 uint64_t* out_keys, uint32_t* out_vals, MergeTileSmem<P>& s) {
  const uint32_t total = na + nb;
  const int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t j = uint32_t(i) * P::BLOCK + tid;
    if (j < na) {
      s.keys[j] = a_keys[j];
      s.values[j] = a_vals[j];
    } else if (j < total) {
      s.keys[j] = b_keys[j - na];
      s.values[j] = b_vals[j - na];
    }
  }
  __syncthreads();
  // My outputs are [diag, diag + ITEMS) of the merge.
  const uint32_t diag = min(uint32_t(tid) * P::ITEMS, total);
  const uint32_t a_split = merge_path(s.keys, na, s.keys + na, nb, diag);
  uint32_t ai = a_split, bi = na + diag - a_split;
  uint64_t ka = ai < na ? s.keys[ai] : 0, kb = bi < total ? s.keys[bi] : 0;
  uint64_t k[P::ITEMS];
  uint32_t src[P::ITEMS];
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const bool a_ok = ai < na, b_ok = bi < total;
    const bool take_a = a_ok && (!b_ok || !(kb < ka));  // ties: a first
    if (take_a) {
      k[i] = ka;
      src[i] = ai++;
      if (ai < na) ka = s.keys[ai];
    } else {
      k[i] = kb;
      src[i] = b_ok ? bi : 0;
      if (b_ok && ++bi < total) kb = s.keys[bi];
    }
  }
  uint32_t v[P::ITEMS];
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) v[i] = s.values[src[i]];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t p = uint32_t(tid) * P::ITEMS + i;
    if (p < total) {
      s.keys[p] = k[i];
      s.values[p] = v[i];
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t j = uint32_t(i) * P::BLOCK + tid;
    if (j < total) {
      out_keys[j] = s.keys[j];
      out_vals[j] = s.values[j];
    }
  }
  __syncthreads();
}

}  // namespace gsort::kernels
