// Turning failed CUDA runtime calls into exceptions.
//
//   GSORT_CUDA_CHECK(cudaMemcpyAsync(...));   // throws on failure
//   launch<<<...>>>(...); GSORT_CUDA_CHECK_LAUNCH();
//
// The message names the call, file:line, the error's name and its text.
// cudaErrorMemoryAllocation becomes DeviceOutOfMemory, so that callers can
// shrink a request or fall back to the CPU backend.
#pragma once

#include <cuda_runtime_api.h>

#include "src/core/errors.h"

namespace gsort {

// A CUDA runtime call failed.
class CudaError : public DeviceError {
 public:
  CudaError(const std::string& what, cudaError_t code) : DeviceError(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// The device has too little memory for what was asked (a failed allocation,
// or a memory cap too small to sort anything).
class DeviceOutOfMemory : public CudaError {
 public:
  explicit DeviceOutOfMemory(const std::string& what) : CudaError(what, cudaErrorMemoryAllocation) {}
};

namespace cuda {

[[noreturn]] void throw_error(cudaError_t code, const char* call, const char* file, int line);

inline void check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw_error(code, call, file, line);
}

// For destructors, which must not throw: reports a failure on stderr unless
// the runtime is already shutting down.
void report_in_destructor(cudaError_t code, const char* call, const char* file, int line) noexcept;

}  // namespace cuda
}  // namespace gsort

#define GSORT_CUDA_CHECK(call) ::gsort::cuda::check((call), #call, __FILE__, __LINE__)
#define GSORT_CUDA_CHECK_LAUNCH() ::gsort::cuda::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
#define GSORT_CUDA_REPORT(call) ::gsort::cuda::report_in_destructor((call), #call, __FILE__, __LINE__)
