#include "src/cuda/host_registration.h"

#include <utility>

#include "src/cuda/check.h"

namespace gsort::cuda {

HostRegistration::HostRegistration(int device, void* p, size_t bytes, unsigned flags) noexcept : device_(device) {
  if (bytes == 0) return;
  if (cudaSetDevice(device) == cudaSuccess && cudaHostRegister(p, bytes, flags) == cudaSuccess) {
    p_ = p;
    return;
  }
  (void)cudaGetLastError();  // not registered: copies from it run slower, not wrong
}

void HostRegistration::reset() noexcept {
  if (!p_) return;
  GSORT_CUDA_REPORT(cudaSetDevice(device_));
  GSORT_CUDA_REPORT(cudaHostUnregister(std::exchange(p_, nullptr)));
}

void HostRegistration::swap(HostRegistration& other) noexcept {
  std::swap(p_, other.p_);
  std::swap(device_, other.device_);
}

}  // namespace gsort::cuda
