// Rank sort of (u64 key, u32 value) pairs for tiny arrays.
//   n <= kBlockMax: one block sorts everything in shared memory, in place.
//   larger n: a copy of the input goes to temp; a grid of
//   (key block x key chunk) blocks adds up each key's rank with atomics; a
//   last kernel writes every pair to its rank in the caller's arrays.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/block/rank_sort.cuh"
#include "src/cuda/check.h"
#include "kernels/device/sorts.h"

namespace gsort::kernels {
namespace {

constexpr int kBlock = 1024;
constexpr uint32_t kBlockMax = 512;   // largest n sorted by one block (measured: one block
                                      // at 1024 took 54 us, the grid path at 2048 19 us)
constexpr int kCountBlock = 256;      // keys ranked per block of the grid path
constexpr uint32_t kChunk = 256;      // keys compared against per block
constexpr uint64_t kMaxN = (uint64_t(1) << 32) - 1;

size_t align_up(size_t x) { return (x + 255) / 256 * 256; }

__global__ void __launch_bounds__(kBlock) rank_sort_block_kernel(uint64_t* keys, uint32_t* vals, uint32_t n) {
  __shared__ uint64_t s_keys[kBlockMax];
  __shared__ uint32_t s_vals[kBlockMax];
  __shared__ uint32_t s_rank[kBlockMax];
  for (uint32_t i = threadIdx.x; i < n; i += kBlock) {
    s_keys[i] = keys[i];
    s_vals[i] = vals[i];
  }
  __syncthreads();
  kernels::cta_rank_sort_pairs<kBlock>(s_keys, s_vals, s_rank, n, keys, vals);
}

__global__ void rank_copy_in_kernel(const uint64_t* keys, const uint32_t* vals, uint64_t* keys_copy,
                                    uint32_t* vals_copy, uint32_t* ranks, uint32_t n) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys_copy[i] = keys[i];
    vals_copy[i] = vals[i];
    ranks[i] = 0;
  }
}

// Block (x, y): keys [x*kCountBlock, +kCountBlock) against chunk y.
__global__ void __launch_bounds__(kCountBlock)
    rank_count_kernel(const uint64_t* keys, uint32_t n, uint32_t* ranks) {
  __shared__ uint64_t s_chunk[kChunk];
  const uint32_t key_blocks = (n + kCountBlock - 1) / kCountBlock;
  const uint32_t chunks = (n + kChunk - 1) / kChunk;
  for (uint32_t kb = blockIdx.x; kb < key_blocks; kb += gridDim.x) {
    const uint32_t i = kb * kCountBlock + threadIdx.x;
    const uint64_t x = i < n ? keys[i] : 0;
    for (uint32_t cb = blockIdx.y; cb < chunks; cb += gridDim.y) {
      const uint32_t j0 = cb * kChunk;
      const uint32_t len = n - j0 < kChunk ? n - j0 : kChunk;
      __syncthreads();
      for (uint32_t t = threadIdx.x; t < len; t += kCountBlock) s_chunk[t] = keys[j0 + t];
      __syncthreads();
      if (i < n) {
        // Chunk-relative indices: keys of the chunk before i are those below rel.
        const uint32_t rel = i < j0 ? 0 : i - j0;
        const uint32_t c = kernels::rank_contribution(s_chunk, 0, len, x, rel);
        if (c != 0) atomicAdd(&ranks[i], c);
      }
    }
  }
}

__global__ void rank_scatter_kernel(const uint64_t* keys_copy, const uint32_t* vals_copy,
                                    const uint32_t* ranks, uint64_t* keys, uint32_t* vals, uint32_t n) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[ranks[i]] = keys_copy[i];
    vals[ranks[i]] = vals_copy[i];
  }
}

}  // namespace

uint64_t rank_sort_block_max() { return kBlockMax; }

size_t rank_sort_pairs_temp_bytes(uint64_t n) {
  if (n <= kBlockMax) return 0;
  return align_up(n * sizeof(uint64_t)) + align_up(n * sizeof(uint32_t)) +
         align_up(n * sizeof(uint32_t));
}

void rank_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, void* temp,
                         size_t temp_bytes, CUstream_st* stream) {
  if (n > kMaxN)
    throw std::invalid_argument("rank_sort_pairs: n = " + std::to_string(n) +
                                " is beyond what an O(n^2) sort is for (at most 2^32 - 1)");
  const size_t need = rank_sort_pairs_temp_bytes(n);
  if (temp_bytes < need || (need > 0 && temp == nullptr))
    throw std::invalid_argument("rank_sort_pairs: temp is " + std::to_string(temp_bytes) +
                                " bytes, needs " + std::to_string(need));
  if (n <= 1) return;
  const uint32_t n32 = uint32_t(n);
  if (n <= kBlockMax) {
    rank_sort_block_kernel<<<1, kBlock, 0, stream>>>(keys_in_out, values_in_out, n32);
    GSORT_CUDA_CHECK_LAUNCH();
    return;
  }
  char* p = static_cast<char*>(temp);
  uint64_t* keys_copy = reinterpret_cast<uint64_t*>(p);
  p += align_up(n * sizeof(uint64_t));
  uint32_t* vals_copy = reinterpret_cast<uint32_t*>(p);
  p += align_up(n * sizeof(uint32_t));
  uint32_t* ranks = reinterpret_cast<uint32_t*>(p);
  const unsigned lin_grid = unsigned(std::min<uint64_t>((n + 255) / 256, 1u << 20));
  rank_copy_in_kernel<<<lin_grid, 256, 0, stream>>>(keys_in_out, values_in_out, keys_copy, vals_copy,
                                                    ranks, n32);
  GSORT_CUDA_CHECK_LAUNCH();
  const dim3 grid(unsigned(std::min<uint64_t>((n + kCountBlock - 1) / kCountBlock, 1u << 20)),
                  unsigned(std::min<uint64_t>((n + kChunk - 1) / kChunk, 65535)));
  rank_count_kernel<<<grid, kCountBlock, 0, stream>>>(keys_copy, n32, ranks);
  GSORT_CUDA_CHECK_LAUNCH();
  rank_scatter_kernel<<<lin_grid, 256, 0, stream>>>(keys_copy, vals_copy, ranks, keys_in_out,
                                                    values_in_out, n32);
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace gsort::kernels
