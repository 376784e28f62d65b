// Pinning host memory for a device before any backend exists on it.
#include <cuda_runtime_api.h>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/cuda/check.h"

namespace gsort {

bool pin_host_for_device(int device, void* p, size_t bytes) {
  if (cudaSetDevice(device) == cudaSuccess && cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess) {
    return true;
  }
  (void)cudaGetLastError();  // not pinned: copies from it run slower, not wrong
  return false;
}

void unpin_host_for_device(int device, void* p) {
  GSORT_CUDA_REPORT(cudaSetDevice(device));
  GSORT_CUDA_REPORT(cudaHostUnregister(p));
}

}  // namespace gsort
