// Sorting one group's extracted keys on the device with CUB's radix sort:
// one pass over the last word's key bits (the whole key when it fits in one
// word), then, for wider keys, one 64-bit pass per earlier word, each after
// permuting that word's column into the current order (stable LSD).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels/key_format.h"

namespace gsort::kernels {

struct SortBuffers {
  const uint64_t* columns = nullptr;  // words-1 columns (wide keys), column_stride apart
  uint64_t column_stride = 0;
  void* keys_a = nullptr;             // holds the last word's keys on entry
  void* keys_b = nullptr;             // format.sort_key_bytes() per element, like keys_a
  uint32_t* values_a = nullptr;       // holds the chunk indices on entry
  uint32_t* values_b = nullptr;
  void* temp = nullptr;               // CUB scratch
  size_t temp_bytes = 0;
};

struct SortedKeys {
  const uint32_t* order = nullptr;  // chunk indices in sorted order
  // The last pass's sorted keys: the whole key (right-aligned, as the
  // format's last_type) for one-word keys, else word 0 as uint64.
  const void* keys = nullptr;
};

// CUB scratch bytes needed to sort `count` keys of this format.
size_t key_sort_temp_bytes(const KeyFormat& format, uint64_t count);

// Enqueues the sort of `count` (< 2^32) keys on `stream`. Stable: equal
// keys keep their order in values_a. Throws CudaError on failure.
SortedKeys sort_keys(const KeyFormat& format, const SortBuffers& buffers, uint64_t count, uint32_t index_base,
                     cudaStream_t stream);

}  // namespace gsort::kernels
