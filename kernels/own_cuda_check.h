// Error checking for gsort's own GPU kernels: a failed CUDA call becomes a
// std::runtime_error naming the file, the line, the call and the driver's text.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gsort::own {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": " +
                           cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

}  // namespace gsort::own

// Checks the result of a CUDA runtime call.
#define OWN_CUDA_CHECK(call)                                                   \
  do {                                                                         \
    cudaError_t own_err_ = (call);                                             \
    if (own_err_ != cudaSuccess)                                               \
      ::gsort::own::throw_cuda_error(own_err_, #call, __FILE__, __LINE__);     \
  } while (0)

// Checks that the kernel launch just made was accepted (launch configuration,
// missing kernel image). Asynchronous faults surface at the next sync.
#define OWN_CUDA_CHECK_LAUNCH() OWN_CUDA_CHECK(cudaGetLastError())
