#include "kernels/line_gather.h"

#include <algorithm>

#include <cub/device/device_scan.cuh>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;

// lengths[i]: the bytes of the i-th line in order, its terminator included.
__global__ void sorted_lengths_kernel(const uint64_t* starts, const uint32_t* order, uint64_t n, uint64_t* lengths) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const uint32_t line = order[i];
    lengths[i] = starts[line + 1] - starts[line];
  }
}

// One warp a line: its lanes copy 32 neighbouring bytes at a time, so
// that a short line is one load and one store of the warp.
__global__ void gather_kernel(const uint8_t* text, const uint64_t* starts, const uint32_t* order,
                              const uint64_t* offsets, uint64_t n, uint8_t* out) {
  const uint64_t base = starts[0];
  const uint64_t lane = threadIdx.x % kWarp;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * blockDim.x / kWarp;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp; i < n; i += warps) {
    const uint32_t line = order[i];
    const uint64_t begin = starts[line] - base, bytes = starts[line + 1] - starts[line];
    const uint8_t* from = text + begin;
    uint8_t* to = out + offsets[i];
    for (uint64_t b = lane; b < bytes; b += kWarp) to[b] = from[b];
  }
}

unsigned grid_for(uint64_t threads) {
  const uint64_t blocks = (threads + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<uint64_t>(std::max<uint64_t>(blocks, 1), 1u << 20));
}

}  // namespace

size_t line_gather_temp_bytes(uint64_t count) {
  size_t bytes = 0;
  GSORT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const uint64_t*>(nullptr),
                                                 static_cast<uint64_t*>(nullptr), count));
  return bytes;
}

void gather_sorted_lines(const uint8_t* text, const uint64_t* starts, const uint32_t* order, uint64_t count,
                         uint64_t* lengths, uint64_t* offsets, uint8_t* out, void* temp, size_t temp_bytes,
                         cudaStream_t stream) {
  if (count == 0) return;
  sorted_lengths_kernel<<<grid_for(count), kThreads, 0, stream>>>(starts, order, count, lengths);
  GSORT_CUDA_CHECK(cudaGetLastError());
  GSORT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, static_cast<const uint64_t*>(lengths), offsets,
                                                 count, stream));
  gather_kernel<<<grid_for(count * kWarp), kThreads, 0, stream>>>(text, starts, order, offsets, count, out);
  GSORT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gsort::kernels
