#include "kernels/kernel_image.h"

#ifndef GSORT_CUDA_ARCHITECTURES
#define GSORT_CUDA_ARCHITECTURES "unknown"
#endif

namespace gsort::kernels {
namespace {

// Never launched: compiled with the same architectures as every other kernel
// of gsort_kernels, so whether it has an image for the device answers for all.
__global__ void kernel_image_probe() {}

}  // namespace

cudaError_t kernel_image_status() {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, kernel_image_probe);
  (void)cudaGetLastError();  // leave no error behind for later checks
  return status;
}

const char* built_cuda_architectures() { return GSORT_CUDA_ARCHITECTURES; }

}  // namespace gsort::kernels
