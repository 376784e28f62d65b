// LSD radix sort of (key, u32 value) pairs: host algorithm and its kernels.
//
// Per digit pass over bits [shift, shift + bits):
//   1. upsweep:   each block counts the digits of its chunk (by default one
//                 tile) into table[digit * G + chunk];
//   2. scan:      exclusive_scan over the table gives, for every
//                 (digit, chunk), where that chunk's keys of that digit go;
//   3. downsweep: each block ranks its chunk's tiles by digit in shared
//                 memory and stores each digit's run contiguously.
// One tile per chunk makes the blocks that run at the same time work on
// neighbouring tiles, so their stores into each digit's range land side by
// side and fill whole sectors in L2 (larger chunks scatter each digit's
// stores over G places at once, and partial sectors get evicted).
// Table entries are 32-bit while n < 2^32, else 64-bit.
// Arrays of at most one tile are sorted by a single block in one launch.
// Passes ping-pong between the caller's arrays and the alternate arrays in
// temp; an odd pass count ends with one copy back.
//
// Included by radix_sort.cu (the public entry points), the benchmark
// (other policies) and the tests (options).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/block/radix.cuh"
#include "src/cuda/check.h"
#include "src/cuda/shared_memory_limit.h"
#include "kernels/device/sorts.h"

namespace gsort::kernels {

struct RadixOptions {
  uint64_t tiles_per_chunk = 1;  // tiles each block of a pass handles
  bool wide_offsets = false;     // 64-bit table entries even when n < 2^32 (tests)
};

template <class P, typename K>
__global__ void __launch_bounds__(P::BLOCK)
    radix_upsweep_kernel(const K* keys, uint64_t n, int shift, uint32_t mask, uint64_t tiles_per_chunk,
                         void* table, bool wide, uint64_t G) {
  __shared__ RadixHistSmem<P> s;
  const uint64_t g = blockIdx.x;
  const uint64_t chunk = tiles_per_chunk * P::TILE;
  const uint64_t begin = g * chunk;
  const uint64_t end = n - begin < chunk ? n : begin + chunk;
  uint32_t count = 0;
  cta_radix_histogram<P, K>(keys, begin, end, shift, mask, s, &count);
  if (threadIdx.x < P::RADIX) {
    const uint64_t at = uint64_t(threadIdx.x) * G + g;
    if (wide)
      static_cast<uint64_t*>(table)[at] = count;
    else
      static_cast<uint32_t*>(table)[at] = count;
  }
}

template <class P, typename K, typename O>
__global__ void __launch_bounds__(P::BLOCK, P::MIN_BLOCKS)
    radix_downsweep_kernel(const K* keys_in, const uint32_t* values_in, K* keys_out,
                           uint32_t* values_out, uint64_t n, int shift, uint32_t mask,
                           uint64_t tiles_per_chunk, const O* offsets, uint64_t G) {
  extern __shared__ __align__(16) unsigned char radix_smem[];
  auto& s = *reinterpret_cast<RadixScatterSmem<P, K, O>*>(radix_smem);
  const uint64_t g = blockIdx.x;
  if (threadIdx.x < P::RADIX) s.chunk_offset[threadIdx.x] = offsets[uint64_t(threadIdx.x) * G + g];
  const uint64_t t_end = (g + 1) * tiles_per_chunk;
  for (uint64_t t = g * tiles_per_chunk; t < t_end; ++t) {
    const uint64_t base = t * P::TILE;
    if (base >= n) break;
    const uint32_t valid = n - base < uint64_t(P::TILE) ? uint32_t(n - base) : uint32_t(P::TILE);
    cta_radix_scatter_tile<P, K, O>(keys_in + base, values_in + base, valid, keys_out, values_out,
                                    shift, mask, s);
  }
}

// n <= TILE: all passes in one block; the tile goes back and forth between
// the caller's arrays and alt, ending in the caller's.
template <class P, typename K>
__global__ void __launch_bounds__(P::BLOCK)
    radix_single_tile_kernel(K* keys, uint32_t* values, K* keys_alt, uint32_t* values_alt,
                             uint32_t n, int begin_bit, int end_bit) {
  extern __shared__ __align__(16) unsigned char radix_smem[];
  auto& s = *reinterpret_cast<RadixScatterSmem<P, K, uint32_t>*>(radix_smem);
  K* src_k = keys;
  uint32_t* src_v = values;
  K* dst_k = keys_alt;
  uint32_t* dst_v = values_alt;
  for (int bit = begin_bit; bit < end_bit; bit += P::RADIX_BITS) {
    const int bits = end_bit - bit < P::RADIX_BITS ? end_bit - bit : P::RADIX_BITS;
    cta_radix_scatter_tile<P, K, uint32_t>(src_k, src_v, n, dst_k, dst_v, bit, (1u << bits) - 1u, s,
                                           /*local=*/true);
    __syncthreads();  // this pass's stores are visible to the next pass's loads
    K* tk = src_k;
    src_k = dst_k;
    dst_k = tk;
    uint32_t* tv = src_v;
    src_v = dst_v;
    dst_v = tv;
  }
  if (src_k != keys) {
    for (uint32_t j = threadIdx.x; j < n; j += P::BLOCK) {
      keys[j] = src_k[j];
      values[j] = src_v[j];
    }
  }
}

inline size_t radix_align(size_t x) { return (x + 255) / 256 * 256; }

template <class P>
uint64_t radix_num_chunks(uint64_t n, const RadixOptions& opt) {
  const uint64_t tiles = (n + P::TILE - 1) / P::TILE;
  const uint64_t k = std::max<uint64_t>(1, opt.tiles_per_chunk);
  return (tiles + k - 1) / k;
}

inline bool radix_wide(uint64_t n, const RadixOptions& opt) {
  return opt.wide_offsets || n > uint64_t(UINT32_MAX);
}

template <class P, typename K>
size_t radix_sort_temp_bytes(uint64_t n, const RadixOptions& opt = {}) {
  if (n <= 1) return 0;
  size_t bytes = radix_align(n * sizeof(K)) + radix_align(n * sizeof(uint32_t));
  if (n > uint64_t(P::TILE)) {
    const size_t elem = radix_wide(n, opt) ? 8 : 4;
    const uint64_t table = uint64_t(P::RADIX) * radix_num_chunks<P>(n, opt);
    bytes += radix_align(table * elem) + exclusive_scan_temp_bytes(table, elem);
  }
  return bytes;
}

template <class P, typename K, typename O>
void radix_passes(K* keys, uint32_t* values, K* keys_alt, uint32_t* values_alt, uint64_t n,
                  int begin_bit, int end_bit, O* table, void* scan_temp, size_t scan_bytes,
                  const RadixOptions& opt, cudaStream_t stream) {
  const uint64_t k = std::max<uint64_t>(1, opt.tiles_per_chunk);
  const uint64_t G = radix_num_chunks<P>(n, opt);
  if (G > uint64_t(INT32_MAX)) throw std::invalid_argument("radix_sort_pairs: too many chunks");
  const uint64_t table_n = uint64_t(P::RADIX) * G;
  const size_t smem = sizeof(RadixScatterSmem<P, K, O>);
  ensure_dynamic_smem(reinterpret_cast<const void*>(radix_downsweep_kernel<P, K, O>), smem);
  K* src_k = keys;
  uint32_t* src_v = values;
  K* dst_k = keys_alt;
  uint32_t* dst_v = values_alt;
  int passes = 0;
  for (int bit = begin_bit; bit < end_bit; bit += P::RADIX_BITS) {
    const int bits = std::min(P::RADIX_BITS, end_bit - bit);
    const uint32_t mask = (1u << bits) - 1u;
    radix_upsweep_kernel<P, K><<<unsigned(G), P::BLOCK, 0, stream>>>(src_k, n, bit, mask, k, table,
                                                                       sizeof(O) == 8, G);
    GSORT_CUDA_CHECK_LAUNCH();
    if constexpr (sizeof(O) == 8)
      exclusive_scan_u64(table, table, table_n, scan_temp, scan_bytes, stream);
    else
      exclusive_scan_u32(table, table, table_n, scan_temp, scan_bytes, stream);
    radix_downsweep_kernel<P, K, O><<<unsigned(G), P::BLOCK, smem, stream>>>(
        src_k, src_v, dst_k, dst_v, n, bit, mask, k, table, G);
    GSORT_CUDA_CHECK_LAUNCH();
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
    ++passes;
  }
  if (passes % 2 == 1) {
    GSORT_CUDA_CHECK(cudaMemcpyAsync(keys, src_k, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    GSORT_CUDA_CHECK(cudaMemcpyAsync(values, src_v, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                   stream));
  }
}

template <class P, typename K>
void radix_sort_pairs(K* keys, uint32_t* values, uint64_t n, int begin_bit, int end_bit, void* temp,
                      size_t temp_bytes, cudaStream_t stream, const RadixOptions& opt = {}) {
  constexpr int KEY_BITS = int(sizeof(K) * 8);
  if (begin_bit < 0 || end_bit > KEY_BITS || begin_bit > end_bit)
    throw std::invalid_argument("radix_sort_pairs: bad bit window [" + std::to_string(begin_bit) +
                                ", " + std::to_string(end_bit) + ") for " +
                                std::to_string(KEY_BITS) + "-bit keys");
  const size_t need = radix_sort_temp_bytes<P, K>(n, opt);
  if (temp_bytes < need || (need > 0 && temp == nullptr))
    throw std::invalid_argument("radix_sort_pairs: temp is " + std::to_string(temp_bytes) +
                                " bytes, needs " + std::to_string(need));
  if (n <= 1 || begin_bit == end_bit) return;

  char* p = static_cast<char*>(temp);
  K* keys_alt = reinterpret_cast<K*>(p);
  p += radix_align(n * sizeof(K));
  uint32_t* values_alt = reinterpret_cast<uint32_t*>(p);
  p += radix_align(n * sizeof(uint32_t));

  if (n <= uint64_t(P::TILE)) {
    const size_t smem = sizeof(RadixScatterSmem<P, K, uint32_t>);
    ensure_dynamic_smem(reinterpret_cast<const void*>(radix_single_tile_kernel<P, K>), smem);
    radix_single_tile_kernel<P, K><<<1, P::BLOCK, smem, stream>>>(keys, values, keys_alt, values_alt,
                                                                  uint32_t(n), begin_bit, end_bit);
    GSORT_CUDA_CHECK_LAUNCH();
    return;
  }
  const bool wide = radix_wide(n, opt);
  const uint64_t table_n = uint64_t(P::RADIX) * radix_num_chunks<P>(n, opt);
  void* table = p;
  p += radix_align(table_n * (wide ? 8 : 4));
  const size_t scan_bytes = exclusive_scan_temp_bytes(table_n, wide ? 8 : 4);
  if (wide)
    radix_passes<P, K, uint64_t>(keys, values, keys_alt, values_alt, n, begin_bit, end_bit,
                                 static_cast<uint64_t*>(table), p, scan_bytes, opt, stream);
  else
    radix_passes<P, K, uint32_t>(keys, values, keys_alt, values_alt, n, begin_bit, end_bit,
                                 static_cast<uint32_t*>(table), p, scan_bytes, opt, stream);
}

// The tuned defaults (bench/kernel_sort_bench --tune; the sweeps are in
// docs/benchmarks.md, "gsort's GPU kernels"). Two resident blocks per SM:
// 128 registers.
using RadixPolicyU32 = RadixPolicy<256, 24, 8, 2>;
using RadixPolicyU64 = RadixPolicy<384, 12, 8, 2>;

}  // namespace gsort::kernels
