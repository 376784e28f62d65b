// Whether the current CUDA device can run this binary's kernels. nvcc embeds
// machine code (SASS) and/or PTX for the architectures the build names
// (CMAKE_CUDA_ARCHITECTURES); on a device that none of them covers, every
// launch fails. Asking the runtime about one kernel finds that out up front.
#pragma once

#include <cuda_runtime_api.h>

namespace gsort::kernels {

// cudaSuccess when the kernels can run on the current device; else the
// runtime's answer (cudaErrorNoKernelImageForDevice or
// cudaErrorInvalidDeviceFunction when no image fits). Clears the error.
cudaError_t kernel_image_status();

// The CUDA architectures the kernels were built for, as given to CMake
// ("90", "80,90-real"; lists joined by commas).
const char* built_cuda_architectures();

}  // namespace gsort::kernels
