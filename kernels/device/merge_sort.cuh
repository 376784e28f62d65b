// Merge sort of (u64 key, u32 value) pairs: host algorithm and kernels.
//
// Sort: (1) each tile of TILE pairs is sorted in shared memory
// (cta_block_sort_by_rank); (2) passes merge neighbouring runs of
// TILE, 2*TILE, ... pairs. In a pass every block makes exactly one output
// tile: a partition kernel first finds, by merge path over global memory,
// where each output tile's inputs start, so all blocks do equal work however
// the keys fall. Passes ping-pong between the caller's arrays and temp; the
// block sort writes to whichever array makes the last pass land in the
// caller's.
//
// Included by merge_sort.cu (public entry points) and the benchmark.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/block/merge.cuh"
#include "src/cuda/check.h"
#include "src/cuda/shared_memory_limit.h"
#include "src/algo/merge_path.h"

namespace gsort::kernels {

constexpr uint64_t kMergeMaxGrid = uint64_t(1) << 20;

template <class P>
__global__ void __launch_bounds__(P::BLOCK, P::MIN_BLOCKS)
    merge_block_sort_kernel(const uint64_t* keys_in, const uint32_t* vals_in, uint64_t* keys_out,
                            uint32_t* vals_out, uint64_t n, uint64_t num_tiles) {
  extern __shared__ __align__(16) unsigned char merge_smem[];
  auto& s = *reinterpret_cast<MergeTileSmem<P>*>(merge_smem);
  const int tid = threadIdx.x;
  for (uint64_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const uint64_t base = tile * P::TILE;
    const uint32_t valid = n - base < uint64_t(P::TILE) ? uint32_t(n - base) : uint32_t(P::TILE);
    __syncthreads();  // the previous tile's stores have read s
    // Coalesced loads; missing elements are largest keys placed after all
    // real ones, so they sort last and are never stored.
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      const uint32_t j = uint32_t(i) * P::BLOCK + tid;
      s.keys[j] = j < valid ? keys_in[base + j] : ~uint64_t(0);
      s.values[j] = j < valid ? vals_in[base + j] : 0u;
    }
    __syncthreads();
    uint64_t k[P::ITEMS];
    uint32_t v[P::ITEMS];
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      k[i] = s.keys[tid * P::ITEMS + i];
      v[i] = s.values[tid * P::ITEMS + i];
    }
    __syncthreads();
    cta_block_sort_by_rank<P>(k, v, s);
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      const uint32_t j = uint32_t(i) * P::BLOCK + tid;
      if (j < valid) {
        keys_out[base + j] = s.keys[j];
        vals_out[base + j] = s.values[j];
      }
    }
  }
}

// The two runs a sort pass merges into the output tile starting at g.
struct MergePair {
  uint64_t start, a_len, b_len;
  __host__ __device__ MergePair(uint64_t g, uint64_t run, uint64_t n) {
    start = g / (2 * run) * (2 * run);
    a_len = n - start < run ? n - start : run;
    const uint64_t rest = n - start - a_len;
    b_len = rest < run ? rest : run;
  }
};

// splits[k] = how many of output tile k's predecessors (in its pair) come
// from the left run, k in [0, num_tiles].
template <class P>
__global__ void merge_partition_kernel(const uint64_t* keys, uint64_t n, uint64_t run,
                                       uint64_t num_tiles, uint64_t* splits) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k <= num_tiles; k += stride) {
    const uint64_t g = k * P::TILE < n ? k * P::TILE : n;
    const MergePair m(g, run, n);
    splits[k] = merge_path(keys + m.start, m.a_len, keys + m.start + m.a_len, m.b_len, g - m.start);
  }
}

template <class P>
__global__ void __launch_bounds__(P::BLOCK, P::MIN_BLOCKS)
    merge_pass_kernel(const uint64_t* keys_in, const uint32_t* vals_in, uint64_t* keys_out,
                      uint32_t* vals_out, uint64_t n, uint64_t run, uint64_t num_tiles,
                      const uint64_t* splits) {
  extern __shared__ __align__(16) unsigned char merge_smem[];
  auto& s = *reinterpret_cast<MergeTileSmem<P>*>(merge_smem);
  for (uint64_t k = blockIdx.x; k < num_tiles; k += gridDim.x) {
    const uint64_t g0 = k * P::TILE;
    const MergePair m(g0, run, n);
    const uint64_t pair_len = m.a_len + m.b_len;
    const uint64_t d0 = g0 - m.start;
    const uint64_t d1 = d0 + P::TILE < pair_len ? d0 + P::TILE : pair_len;
    const uint64_t a0 = splits[k];
    const uint64_t a1 = d1 == pair_len ? m.a_len : splits[k + 1];
    const uint64_t b0 = d0 - a0, b1 = d1 - a1;
    const uint64_t* a = keys_in + m.start;
    const uint32_t* av = vals_in + m.start;
    cta_merge_ranges<P>(a + a0, av + a0, uint32_t(a1 - a0), a + m.a_len + b0, av + m.a_len + b0,
                        uint32_t(b1 - b0), keys_out + g0, vals_out + g0, s);
  }
}

inline size_t merge_align(size_t x) { return (x + 255) / 256 * 256; }

template <class P>
uint64_t merge_tiles(uint64_t n) {
  return (n + P::TILE - 1) / P::TILE;
}

template <class P>
size_t merge_sort_temp_bytes(uint64_t n) {
  if (n <= 1) return 0;
  return merge_align(n * sizeof(uint64_t)) + merge_align(n * sizeof(uint32_t)) +
         merge_align((merge_tiles<P>(n) + 1) * sizeof(uint64_t));
}

template <class P>
void merge_set_smem(const void* kernel) {
  ensure_dynamic_smem(kernel, sizeof(MergeTileSmem<P>));
}

template <class P>
void merge_sort_pairs(uint64_t* keys, uint32_t* values, uint64_t n, void* temp, size_t temp_bytes,
                      cudaStream_t stream) {
  const size_t need = merge_sort_temp_bytes<P>(n);
  if (temp_bytes < need || (need > 0 && temp == nullptr))
    throw std::invalid_argument("merge_sort_pairs: temp is " + std::to_string(temp_bytes) +
                                " bytes, needs " + std::to_string(need));
  if (n <= 1) return;
  const uint64_t tiles = merge_tiles<P>(n);
  char* p = static_cast<char*>(temp);
  uint64_t* keys_alt = reinterpret_cast<uint64_t*>(p);
  p += merge_align(n * sizeof(uint64_t));
  uint32_t* values_alt = reinterpret_cast<uint32_t*>(p);
  p += merge_align(n * sizeof(uint32_t));
  uint64_t* splits = reinterpret_cast<uint64_t*>(p);

  int passes = 0;
  for (uint64_t run = P::TILE; run < n; run *= 2) ++passes;
  const size_t smem = sizeof(MergeTileSmem<P>);
  merge_set_smem<P>(reinterpret_cast<const void*>(merge_block_sort_kernel<P>));
  merge_set_smem<P>(reinterpret_cast<const void*>(merge_pass_kernel<P>));
  const unsigned grid = unsigned(std::min(tiles, kMergeMaxGrid));
  const unsigned part_grid = unsigned(std::min((tiles + 1 + 255) / 256, kMergeMaxGrid));

  uint64_t* src_k = passes % 2 ? keys_alt : keys;
  uint32_t* src_v = passes % 2 ? values_alt : values;
  uint64_t* dst_k = passes % 2 ? keys : keys_alt;
  uint32_t* dst_v = passes % 2 ? values : values_alt;
  merge_block_sort_kernel<P><<<grid, P::BLOCK, smem, stream>>>(keys, values, src_k, src_v, n, tiles);
  GSORT_CUDA_CHECK_LAUNCH();
  for (uint64_t run = P::TILE; run < n; run *= 2) {
    merge_partition_kernel<P><<<part_grid, 256, 0, stream>>>(src_k, n, run, tiles, splits);
    GSORT_CUDA_CHECK_LAUNCH();
    merge_pass_kernel<P><<<grid, P::BLOCK, smem, stream>>>(src_k, src_v, dst_k, dst_v, n, run, tiles,
                                                          splits);
    GSORT_CUDA_CHECK_LAUNCH();
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
}

// Tuned with bench/kernel_sort_bench (docs/benchmarks.md): few items per
// thread win (smaller tiles and more passes, but shorter serial merges and
// more resident blocks).
using MergePolicyDefault = MergePolicy<256, 5>;

}  // namespace gsort::kernels
