// Pinning host memory for a device before any backend exists on it.
#include <cuda_runtime_api.h>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/cuda/host_registration.h"

namespace gsort {
namespace {

class RegisteredHost final : public HostPin {
 public:
  explicit RegisteredHost(cuda::HostRegistration registration) : registration_(std::move(registration)) {}

 private:
  cuda::HostRegistration registration_;
};

}  // namespace

std::unique_ptr<HostPin> pin_host_for_device(int device, void* p, size_t bytes) {
  cuda::HostRegistration registration(device, p, bytes, cudaHostRegisterPortable);
  if (!registration) return nullptr;
  return std::make_unique<RegisteredHost>(std::move(registration));
}

}  // namespace gsort
