#include "src/cuda/registered_copies.h"

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::cuda {

void RegisteredCopies::copy(const void* from, uint64_t bytes, void* to, unsigned flags) {
  constexpr uintptr_t kPage = 4096;
  const auto* at = static_cast<const uint8_t*>(from);
  const uint8_t* const end = at + bytes;
  auto* into = static_cast<uint8_t*>(to);
  while (at < end) {
    const uintptr_t bound = (reinterpret_cast<uintptr_t>(at) + kPieceBytes) & ~(kPage - 1);
    const uint8_t* next = std::min(end, reinterpret_cast<const uint8_t*>(bound));
    const uint64_t size = static_cast<uint64_t>(next - at);
    pins_.emplace_back(device_, const_cast<uint8_t*>(at), size, flags);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(into, at, size, cudaMemcpyHostToDevice, stream_.get()));
    copied_.record(stream_);  // after each piece: a copy that throws leaves the ones before covered
    into += size;
    at = next;
  }
}

void RegisteredCopies::release() noexcept {
  if (pins_.empty()) return;
  GSORT_CUDA_REPORT(cudaEventSynchronize(copied_.get()));  // (unregistered memory must not be in flight)
  pins_.clear();
}

}  // namespace gsort::cuda
