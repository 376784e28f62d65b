// Entry points of the GPU backend. Declared without CUDA types; implemented
// under src/chunk_sort/gpu/ when gsort is built with CUDA (GSORT_HAVE_CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Which sort orders the keys of a device piece (--algorithm): CUB's radix
// sort, or gsort's radix or merge sort (kernels/device/sorts.h). kAuto is
// CUB, except that 64-bit passes of up to 512 keys (rank_sort_block_max())
// use gsort's rank sort in one block, which beats CUB there and needs no
// scratch (docs/benchmarks.md).
enum class GpuSortAlgorithm { kAuto, kCub, kRadix, kMerge };

struct GpuOptions {
  int device = 0;
  GpuSortAlgorithm algorithm = GpuSortAlgorithm::kAuto;
  uint64_t memory_cap = 0;   // bytes gsort may take on the device; 0 = most of the free memory
  // The input's size when known (0: unknown): with no cap, the device
  // memory taken need not exceed what sorting that much needs.
  uint64_t input_bytes_hint = 0;
};

// Whether a usable CUDA device `device` is present; on false, `why` says why
// in words that stand after "--backend gpu: " ("there is no GPU (no NVIDIA
// driver is installed)", "no CUDA device 2 (1 present)", the driver's error
// text).
bool gpu_usable(int device, std::string* why);

// Whether an NVIDIA driver is installed, from its device node and /proc
// files, without loading the CUDA driver library (microseconds, where
// gpu_usable takes a fraction of a second); on false, `why` says so as
// gpu_usable would. A driver whose library is missing shows when the device
// starts.
bool gpu_driver_installed(std::string* why);

// How many CUDA devices the driver finds (0 with no driver or on any error).
int cuda_device_count();

// Pins `bytes` of page-aligned host memory at `p` for copies to and from
// CUDA device `device` (making its context if need be), before any backend
// exists there, while the result lives; null where it cannot (the memory
// then serves unpinned).
std::unique_ptr<HostPin> pin_host_for_device(int device, void* p, size_t bytes);

// Throws gsort::Error when the device cannot be used. The backend does its
// host-side work (merging device groups, copying orders to pageable memory,
// faulting in pinned buffers) on `pool`, which must outlive it; like any
// ThreadPool, it must not run another thread's parallel_for meanwhile.
std::unique_ptr<SortBackend> make_gpu_backend(const KeyLayout& layout, const GpuOptions& options, ThreadPool& pool);

}  // namespace gsort
