// Block-level prefix sums used by gsort's kernels (kernels/device/scan.cu, the radix sort).
//
// cta_blelloch_exclusive_scan: the work-efficient up-sweep / down-sweep scan
// (Blelloch 1990) of 2*BLOCK values held in shared memory, two per thread,
// with one padding word every 32 so that the tree's strided accesses do not
// pile onto one bank.
//
// warp_inclusive_scan / cta_exclusive_scan: shuffle-based scans of one value
// per thread, for short scans inside other kernels (digit totals).
#pragma once

#include <cstdint>

namespace gsort::kernels {

// Shared-memory index of logical element i once padded.
__host__ __device__ constexpr int blelloch_pad(int i) { return i + (i >> 5); }

// Number of T slots a Blelloch scan of 2*BLOCK values needs.
template <int BLOCK>
__host__ __device__ constexpr int blelloch_smem_slots() { return blelloch_pad(2 * BLOCK - 1) + 1; }

// Scans s[blelloch_pad(i)], i in [0, 2*BLOCK), in place into exclusive
// prefix sums and returns the sum of all 2*BLOCK values. Every thread of the
// block (exactly BLOCK threads) must call it; it synchronises on entry and
// before returning.
template <int BLOCK, typename T>
__device__ T cta_blelloch_exclusive_scan(T* s) {
  static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");
  const int tid = threadIdx.x;
  int offset = 1;
  // Up-sweep: build partial sums in place up the tree.
  for (int d = BLOCK; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      s[blelloch_pad(bi)] += s[blelloch_pad(ai)];
    }
    offset <<= 1;
  }
  __syncthreads();
  const T total = s[blelloch_pad(2 * BLOCK - 1)];
  __syncthreads();
  if (tid == 0) s[blelloch_pad(2 * BLOCK - 1)] = T(0);
  // Down-sweep: push prefixes back down the tree.
  for (int d = 1; d < 2 * BLOCK; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = blelloch_pad(offset * (2 * tid + 1) - 1);
      int bi = blelloch_pad(offset * (2 * tid + 2) - 1);
      T t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  __syncthreads();
  return total;
}

template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    T y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

// Exclusive scan of one value per thread across a block of BLOCK threads
// (a multiple of 32, at most 1024). `warp_sums` is shared scratch of
// BLOCK/32 + 1 values. Returns the thread's exclusive prefix; *total gets
// the block's sum. Synchronises twice; the caller must synchronise before
// reusing warp_sums.
template <int BLOCK, typename T>
__device__ T cta_exclusive_scan(T x, T* warp_sums, T* total) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "bad block size");
  constexpr int WARPS = BLOCK / 32;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T incl = warp_inclusive_scan(x);
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    T w = lane < WARPS ? warp_sums[lane] : T(0);
    T wi = warp_inclusive_scan(w);
    if (lane < WARPS) warp_sums[lane] = wi - w;
    if (lane == WARPS - 1) warp_sums[WARPS] = wi;
  }
  __syncthreads();
  *total = warp_sums[WARPS];
  return warp_sums[warp] + incl - x;
}

}  // namespace gsort::kernels
