// Device-wide exclusive prefix sum: Blelloch scan of 1024-value tiles in
// shared memory, tile sums scanned recursively (same function) and added
// back, so any length works. 64-bit lengths; tiles are walked grid-stride.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/block/scan.cuh"
#include "src/cuda/check.h"
#include "kernels/device/sorts.h"

namespace gsort::kernels {
namespace {

constexpr int kScanBlock = 512;
constexpr uint64_t kScanTile = 2 * kScanBlock;
constexpr uint64_t kMaxGrid = 1u << 20;
constexpr size_t kAlign = 256;

size_t align_up(size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Scans each tile on its own; writes tile t's sum to tile_sums[t] when
// tile_sums is not null.
template <typename T>
__global__ void __launch_bounds__(kScanBlock)
    scan_tiles_kernel(const T* in, T* out, uint64_t n, T* tile_sums, uint64_t num_tiles) {
  __shared__ T s[kernels::blelloch_smem_slots<kScanBlock>()];
  for (uint64_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const uint64_t base = tile * kScanTile;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const int i = threadIdx.x + k * kScanBlock;
      const uint64_t g = base + i;
      s[kernels::blelloch_pad(i)] = g < n ? in[g] : T(0);
    }
    const T total = kernels::cta_blelloch_exclusive_scan<kScanBlock>(s);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const int i = threadIdx.x + k * kScanBlock;
      const uint64_t g = base + i;
      if (g < n) out[g] = s[kernels::blelloch_pad(i)];
    }
    if (tile_sums != nullptr && threadIdx.x == 0) tile_sums[tile] = total;
    __syncthreads();  // the next tile overwrites s
  }
}

// out[i] += scanned_sums[i / kScanTile], for tiles after the first.
template <typename T>
__global__ void add_tile_prefix_kernel(T* out, uint64_t n, const T* scanned_sums) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = kScanTile + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] += scanned_sums[i / kScanTile];
}

size_t scan_temp_bytes(uint64_t n, size_t elem) {
  const uint64_t tiles = ceil_div(n, kScanTile);
  if (tiles <= 1) return 0;
  return align_up(tiles * elem) + scan_temp_bytes(tiles, elem);
}

template <typename T>
void scan_recursive(const T* in, T* out, uint64_t n, char* temp, size_t temp_bytes,
                    cudaStream_t stream) {
  if (n == 0) return;
  const uint64_t tiles = ceil_div(n, kScanTile);
  const unsigned grid = unsigned(std::min(tiles, kMaxGrid));
  if (tiles == 1) {
    scan_tiles_kernel<T><<<1, kScanBlock, 0, stream>>>(in, out, n, nullptr, 1);
    GSORT_CUDA_CHECK_LAUNCH();
    return;
  }
  T* sums = reinterpret_cast<T*>(temp);
  const size_t used = align_up(tiles * sizeof(T));
  scan_tiles_kernel<T><<<grid, kScanBlock, 0, stream>>>(in, out, n, sums, tiles);
  GSORT_CUDA_CHECK_LAUNCH();
  scan_recursive<T>(sums, sums, tiles, temp + used, temp_bytes - used, stream);
  const uint64_t add_blocks = std::min<uint64_t>(ceil_div(n - kScanTile, 256), kMaxGrid);
  add_tile_prefix_kernel<T><<<unsigned(add_blocks), 256, 0, stream>>>(out, n, sums);
  GSORT_CUDA_CHECK_LAUNCH();
}

template <typename T>
void scan_entry(const T* in, T* out, uint64_t n, void* temp, size_t temp_bytes, cudaStream_t stream) {
  const size_t need = scan_temp_bytes(n, sizeof(T));
  if (temp_bytes < need || (need > 0 && temp == nullptr))
    throw std::invalid_argument("exclusive_scan: temp is " + std::to_string(temp_bytes) +
                                " bytes, needs " + std::to_string(need));
  scan_recursive<T>(in, out, n, static_cast<char*>(temp), temp_bytes, stream);
}

}  // namespace

size_t exclusive_scan_temp_bytes(uint64_t n, size_t elem_bytes) {
  if (elem_bytes != 4 && elem_bytes != 8)
    throw std::invalid_argument("exclusive_scan_temp_bytes: elem_bytes must be 4 or 8");
  return scan_temp_bytes(n, elem_bytes);
}

void exclusive_scan_u32(const uint32_t* in, uint32_t* out, uint64_t n, void* temp,
                            size_t temp_bytes, CUstream_st* stream) {
  scan_entry<uint32_t>(in, out, n, temp, temp_bytes, stream);
}

void exclusive_scan_u64(const uint64_t* in, uint64_t* out, uint64_t n, void* temp,
                            size_t temp_bytes, CUstream_st* stream) {
  scan_entry<uint64_t>(in, out, n, temp, temp_bytes, stream);
}

}  // namespace gsort::kernels
