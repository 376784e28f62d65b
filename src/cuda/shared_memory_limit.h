// Host helper for gsort's own kernels: raise a kernel's dynamic shared-memory
// limit (needed above 48 KB) once per kernel and device, not on every call.
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
