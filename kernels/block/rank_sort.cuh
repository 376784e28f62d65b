// Block-level rank (counting) sort: the final place of key x at index i is
// the number of keys below x plus the number of equal keys at lower indices.
// Every key is compared with every other, O(n^2) work, no data-dependent
// control flow: it suits tiny arrays (sample splitters, small tiles).
#pragma once

#include <cstdint>

namespace gsort::kernels {

// Adds to `rank` the number of keys[j], j in [j0, j1), that precede x, the
// key at index i: keys[j] < x, or keys[j] == x and j < i.
__device__ __forceinline__ uint32_t rank_contribution(const uint64_t* keys, uint32_t j0, uint32_t j1,
                                                      uint64_t x, uint32_t i) {
  uint32_t c = 0;
  const uint32_t split = i < j0 ? j0 : (i < j1 ? i : j1);  // [j0, split) lie before i
  for (uint32_t j = j0; j < split; ++j) c += keys[j] <= x;
  for (uint32_t j = split; j < j1; ++j) c += keys[j] < x;
  return c;
}

// Stable rank sort of the `count` pairs in s_keys/s_vals (shared memory)
// into out_keys/out_vals (shared or global memory, not overlapping s_*).
// s_rank is shared scratch of `count` words. The block's threads split the
// comparisons of each key into parts so that small tiles still keep every
// thread busy. All threads call it; s_* must be visible (after a barrier).
template <int BLOCK>
__device__ void cta_rank_sort_pairs(const uint64_t* s_keys, const uint32_t* s_vals, uint32_t* s_rank,
                                    uint32_t count, uint64_t* out_keys, uint32_t* out_vals) {
  if (count == 0) return;
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < count; i += BLOCK) s_rank[i] = 0;
  __syncthreads();
  uint32_t parts = BLOCK / count;
  parts = parts < 1 ? 1 : (parts > 32 ? 32 : parts);
  const uint32_t units = count * parts;
  for (uint32_t u = tid; u < units; u += BLOCK) {
    const uint32_t i = u % count, part = u / count;
    const uint32_t j0 = uint32_t(uint64_t(count) * part / parts);
    const uint32_t j1 = uint32_t(uint64_t(count) * (part + 1) / parts);
    const uint32_t c = rank_contribution(s_keys, j0, j1, s_keys[i], i);
    if (parts == 1)
      s_rank[i] = c;
    else if (c != 0)
      atomicAdd(&s_rank[i], c);
  }
  __syncthreads();
  for (uint32_t i = tid; i < count; i += BLOCK) {
    out_keys[s_rank[i]] = s_keys[i];
    out_vals[s_rank[i]] = s_vals[i];
  }
}

}  // namespace gsort::kernels
