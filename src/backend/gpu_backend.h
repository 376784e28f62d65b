// Entry points of the GPU backend. Declared without CUDA types; implemented
// under src/backend/gpu/ when gsort is built with CUDA (GSORT_HAVE_CUDA).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backend/sort_backend.h"
#include "keys/key_layout.h"

namespace gsort {

struct GpuOptions {
  int device = 0;
  uint64_t memory_cap = 0;   // bytes gsort may take on the device; 0 = most of the free memory
  unsigned host_threads = 1;  // threads for host-side work (merging, gathering)
};

// Whether a usable CUDA device `device` is present; on false, `why` says why
// ("no CUDA device", "built without CUDA", the driver's error text).
bool gpu_usable(int device, std::string* why);

// Throws gsort::Error when the device cannot be used.
std::unique_ptr<SortBackend> make_gpu_backend(const KeyLayout& layout, const GpuOptions& options);

}  // namespace gsort
