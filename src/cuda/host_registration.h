// Host memory registered (page-locked) for copies with CUDA devices for as
// long as a HostRegistration lives: the one wrapper of cudaHostRegister.
// Registering is a wish, not a need: where the driver refuses (too much
// locked memory, a mapping it cannot lock) the registration is empty and
// the failure is cleared; copies with that memory then go through the
// driver's staging, slower but correct. Move-only; the destructor
// unregisters and never throws.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace gsort::cuda {

class HostRegistration {
 public:
  HostRegistration() = default;
  // Registers [p, p + bytes) with cudaHostRegister(flags) on `device`,
  // which it makes current (as the destructor does before unregistering,
  // so that no thread makes a context on another device). Never throws.
  HostRegistration(int device, void* p, size_t bytes, unsigned flags) noexcept;
  ~HostRegistration() { reset(); }
  HostRegistration(HostRegistration&& other) noexcept { swap(other); }
  HostRegistration& operator=(HostRegistration&& other) noexcept {
    HostRegistration gone(std::move(other));
    swap(gone);
    return *this;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

  // Whether the memory is registered.
  explicit operator bool() const { return p_ != nullptr; }
  // Unregisters now (a failure is only reported).
  void reset() noexcept;

 private:
  void swap(HostRegistration& other) noexcept;

  void* p_ = nullptr;
  int device_ = 0;
};

}  // namespace gsort::cuda
