// Block-level pieces of gsort's LSD radix sort (one digit pass):
//   cta_radix_histogram  - counts digits of a contiguous key range
//   cta_radix_scatter_tile - ranks one tile of keys by digit in shared memory
//                          (stable) and writes keys and values to their global
//                          places, digit runs contiguous so stores coalesce;
//                          its steps are radix_load_tile, radix_rank_in_warp,
//                          radix_tile_offsets, radix_exchange_in_tile and
//                          radix_store_runs.
//
// Tile layout is "warp-striped": warp w owns tile elements
// [w*ITEMS*32, (w+1)*ITEMS*32) and lane l's item i is element
// w*ITEMS*32 + i*32 + l. Loads are coalesced, and the order in which a warp
// visits its items (item by item, lane by lane) is the input order, which is
// what makes the ranking stable.
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>

#include "kernels/block/scan.cuh"

namespace gsort::kernels {

// Tuning of one radix sort instantiation.
template <int BLOCK_, int ITEMS_, int RADIX_BITS_, int MIN_BLOCKS_ = 1>
struct RadixPolicy {
  static constexpr int BLOCK = BLOCK_;            // threads per block
  static constexpr int ITEMS = ITEMS_;            // keys per thread per tile
  static constexpr int RADIX_BITS = RADIX_BITS_;  // bits per digit pass
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // resident blocks per SM asked of the compiler
  static constexpr int RADIX = 1 << RADIX_BITS;
  static constexpr int WARPS = BLOCK / 32;
  static constexpr int TILE = BLOCK * ITEMS;
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "block must be whole warps");
  static_assert(RADIX <= BLOCK, "one thread per digit needs RADIX <= BLOCK");
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 8, "1..8 bit digits");
};

template <typename K>
__device__ __forceinline__ uint32_t radix_digit(K key, int shift, uint32_t mask) {
  return uint32_t(key >> shift) & mask;
}

// Lanes of the (full) warp whose digit equals this lane's digit: one ballot
// per digit bit.
template <int BITS>
__device__ __forceinline__ uint32_t warp_match_digit(uint32_t d) {
  uint32_t peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < BITS; ++b) {
    const bool bit = (d >> b) & 1u;
    const uint32_t vote = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

__device__ __forceinline__ uint32_t lanemask_lt() {
  uint32_t m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// Shared memory of cta_radix_histogram.
template <class P>
struct RadixHistSmem {
  uint32_t counts[P::WARPS][P::RADIX];
};

// Adds the digit counts of keys[begin, end) into `out` (RADIX values, one
// per thread with threadIdx.x < RADIX, written not accumulated). Uses
// 16-byte loads where `keys` allows.
template <class P, typename K>
__device__ void cta_radix_histogram(const K* keys, uint64_t begin, uint64_t end, int shift,
                                    uint32_t mask, RadixHistSmem<P>& s, uint32_t* out_count) {
  constexpr int VEC = 16 / sizeof(K);
  constexpr int UNROLL = 4;
  const int tid = threadIdx.x, warp = tid >> 5;
  for (int j = tid; j < P::WARPS * P::RADIX; j += P::BLOCK) (&s.counts[0][0])[j] = 0;
  __syncthreads();
  uint32_t* my = s.counts[warp];
  uint64_t i = begin;
  if (end - begin >= uint64_t(VEC) && (reinterpret_cast<uintptr_t>(keys + begin) % 16) == 0) {
    const uint4* v = reinterpret_cast<const uint4*>(keys + begin);
    const uint64_t nvec = (end - begin) / VEC;
    for (uint64_t base = 0; base < nvec; base += uint64_t(P::BLOCK) * UNROLL) {
      uint4 r[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const uint64_t idx = base + uint64_t(u) * P::BLOCK + tid;
        r[u] = idx < nvec ? v[idx] : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const uint64_t idx = base + uint64_t(u) * P::BLOCK + tid;
        if (idx < nvec) {
          const K* k = reinterpret_cast<const K*>(&r[u]);
#pragma unroll
          for (int e = 0; e < VEC; ++e) atomicAdd(&my[radix_digit(k[e], shift, mask)], 1u);
        }
      }
    }
    i = begin + nvec * VEC;
  }
  for (i += tid; i < end; i += P::BLOCK) atomicAdd(&my[radix_digit(keys[i], shift, mask)], 1u);
  __syncthreads();
  if (tid < P::RADIX) {
    uint32_t c = 0;
#pragma unroll
    for (int w = 0; w < P::WARPS; ++w) c += s.counts[w][tid];
    *out_count = c;
  }
}

// Shared memory of cta_radix_scatter_tile. O is the type of global places
// (uint32_t while n < 2^32). chunk_offset persists across the tiles of one
// block's chunk.
template <class P, typename K, typename O>
struct RadixScatterSmem {
  K keys[P::TILE];
  uint32_t values[P::TILE];
  uint32_t values_in[P::TILE];               // values as loaded (cp.async), tile order
  uint32_t warp_offset[P::WARPS][P::RADIX];  // per warp: digit counts, then offsets in the tile
  O digit_base[P::RADIX];                     // global place of a digit's run minus its tile place
  O chunk_offset[P::RADIX];                   // where the chunk's next key of each digit goes
  uint32_t scan_tmp[P::WARPS + 1];
};

// The steps of cta_radix_scatter_tile, in order; each is called by all
// threads of the block.

// 0. Starts copying this thread's values of the tile straight to shared
// memory (no registers held while ranking; each thread later reads back
// the slots it copied itself), and loads its keys. Missing elements act as
// keys of the largest digit after all real ones, so they rank last in the
// tile and are never stored.
template <class P, typename K, typename O>
__device__ __forceinline__ void radix_load_tile(const K* keys_in, const uint32_t* values_in, uint32_t valid,
                                                uint32_t warp_first, RadixScatterSmem<P, K, O>& s,
                                                K (&key)[P::ITEMS]) {
  if (valid == uint32_t(P::TILE)) {
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i)
      __pipeline_memcpy_async(&s.values_in[warp_first + i * 32], &values_in[warp_first + i * 32], 4);
  } else {
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      const uint32_t e = warp_first + i * 32;
      if (e < valid) __pipeline_memcpy_async(&s.values_in[e], &values_in[e], 4);
    }
  }
  __pipeline_commit();
  if (valid == uint32_t(P::TILE)) {
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) key[i] = keys_in[warp_first + i * 32];
  } else {
#pragma unroll
    for (int i = 0; i < P::ITEMS; ++i) {
      const uint32_t e = warp_first + i * 32;
      key[i] = e < valid ? keys_in[e] : ~K(0);
    }
  }
}

// 1. Per warp, the stable rank of each item among the warp's items of its
// digit, counting the warp's digits in `my_counts`. The previous tile read
// warp_offset only before its last barrier.
template <class P, typename K>
__device__ __forceinline__ void radix_rank_in_warp(const K (&key)[P::ITEMS], int shift, uint32_t mask,
                                                   uint32_t* my_counts, uint32_t (&rank)[P::ITEMS]) {
  const int lane = threadIdx.x & 31;
  for (int d = lane; d < P::RADIX; d += 32) my_counts[d] = 0;
  __syncwarp();
  const uint32_t lt = lanemask_lt();
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t d = radix_digit(key[i], shift, mask);
    const uint32_t peers = warp_match_digit<P::RADIX_BITS>(d);
    const int leader = __ffs(peers) - 1;
    uint32_t before = 0;
    if (lane == leader) {
      before = my_counts[d];
      my_counts[d] = before + __popc(peers);
    }
    before = __shfl_sync(0xffffffffu, before, leader);
    rank[i] = before + __popc(peers & lt);
    __syncwarp();
  }
  __syncthreads();
}

// 2. Per digit (one thread each): offsets of each warp's run inside the
// tile, the digit's global base, and the chunk's next offset.
template <class P, typename K, typename O>
__device__ __forceinline__ void radix_tile_offsets(int tid, RadixScatterSmem<P, K, O>& s, bool local) {
  uint32_t total = 0;
  if (tid < P::RADIX) {
#pragma unroll
    for (int w = 0; w < P::WARPS; ++w) {
      const uint32_t c = s.warp_offset[w][tid];
      s.warp_offset[w][tid] = total;
      total += c;
    }
  }
  uint32_t tile_sum;
  const uint32_t excl = cta_exclusive_scan<P::BLOCK>(total, s.scan_tmp, &tile_sum);
  if (tid < P::RADIX) {
#pragma unroll
    for (int w = 0; w < P::WARPS; ++w) s.warp_offset[w][tid] += excl;
    if (local) {
      s.digit_base[tid] = O(0);
    } else {
      const O base = s.chunk_offset[tid];
      s.digit_base[tid] = base - O(excl);  // wraps; plus the tile place gives the global place
      s.chunk_offset[tid] = base + O(total);
    }
  }
  __syncthreads();
}

// 3. Exchange through shared memory into digit order.
template <class P, typename K, typename O>
__device__ __forceinline__ void radix_exchange_in_tile(const K (&key)[P::ITEMS], const uint32_t (&rank)[P::ITEMS],
                                                       int shift, uint32_t mask, uint32_t warp_first,
                                                       const uint32_t* my_counts, RadixScatterSmem<P, K, O>& s) {
  __pipeline_wait_prior(0);
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t place = my_counts[radix_digit(key[i], shift, mask)] + rank[i];
    s.keys[place] = key[i];
    s.values[place] = s.values_in[warp_first + i * 32];  // unset for missing elements: never stored
  }
  __syncthreads();
}

// 4. Consecutive threads store consecutive places of each digit run.
template <class P, typename K, typename O>
__device__ __forceinline__ void radix_store_runs(int tid, uint32_t valid, K* keys_out, uint32_t* values_out,
                                                 int shift, uint32_t mask, const RadixScatterSmem<P, K, O>& s) {
#pragma unroll
  for (int i = 0; i < P::ITEMS; ++i) {
    const uint32_t j = uint32_t(i) * P::BLOCK + tid;
    if (j < valid) {
      const K k = s.keys[j];
      const uint64_t dst = uint64_t(O(s.digit_base[radix_digit(k, shift, mask)] + O(j)));
      keys_out[dst] = k;
      values_out[dst] = s.values[j];
    }
  }
}

// Sorts tile elements [0, valid) of keys_in/values_in (tile-relative
// pointers, valid <= TILE) by digit into keys_out/values_out at
// s.chunk_offset[digit] onward, and advances s.chunk_offset. With `local`,
// the tile is written sorted to keys_out[0, valid) instead (chunk_offset is
// not used). All threads call it. Consecutive calls need no barrier in
// between; reading keys_out after it needs one.
template <class P, typename K, typename O>
__device__ void cta_radix_scatter_tile(const K* keys_in, const uint32_t* values_in, uint32_t valid,
                                       K* keys_out, uint32_t* values_out, int shift, uint32_t mask,
                                       RadixScatterSmem<P, K, O>& s, bool local = false) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const uint32_t warp_first = uint32_t(warp) * P::ITEMS * 32 + lane;
  K key[P::ITEMS];
  radix_load_tile(keys_in, values_in, valid, warp_first, s, key);
  uint32_t* my_counts = s.warp_offset[warp];
  uint32_t rank[P::ITEMS];
  radix_rank_in_warp<P>(key, shift, mask, my_counts, rank);
  radix_tile_offsets(tid, s, local);
  radix_exchange_in_tile(key, rank, shift, mask, warp_first, my_counts, s);
  radix_store_runs(tid, valid, keys_out, values_out, shift, mask, s);
}

}  // namespace gsort::kernels
