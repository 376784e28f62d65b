// ensure_dynamic_smem(kernel, bytes): lets `kernel` launch with `bytes` of
// dynamic shared memory on the current device. CUDA allows at most 48 KiB
// per block unless the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize
// is raised, and that attribute is set per kernel and device: the first
// call for a (kernel, device) pair sets it, later calls return at once (one
// size per kernel, as each template instance of kernels/device/ has).
// Thread-safe. Throws CudaError when the device cannot give that much.
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>
#include <set>
#include <utility>

#include "src/cuda/check.h"

namespace gsort::kernels {

inline void ensure_dynamic_smem(const void* kernel, size_t bytes) {
  static std::mutex mu;
  static std::set<std::pair<const void*, int>> done;
  int dev = 0;
  GSORT_CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(mu);
  if (done.count({kernel, dev})) return;
  GSORT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  done.insert({kernel, dev});
}

}  // namespace gsort::kernels
