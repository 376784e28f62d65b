#include "kernels/permute.h"

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;
constexpr uint64_t kMaxBlocks = 16384;

__global__ void gather_column_kernel(const uint64_t* column, const uint32_t* order, uint32_t base, uint64_t count,
                                     uint64_t* out) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    out[i] = column[order[i] - base];
  }
}

}  // namespace

void launch_gather_column(const uint64_t* column, const uint32_t* order, uint32_t index_base, uint64_t count,
                          uint64_t* out, cudaStream_t stream) {
  if (count == 0) return;
  const dim3 grid(static_cast<unsigned>(std::min<uint64_t>((count + kThreads - 1) / kThreads, kMaxBlocks)));
  gather_column_kernel<<<grid, kThreads, 0, stream>>>(column, order, index_base, count, out);
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace gsort::kernels
