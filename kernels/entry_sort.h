// Sorting a chunk's line entries on the device: each entry is 96 bits of
// the lines' keys compiled by the host (src/chunk_sort/lines/composite_pass.h or
// first_pass.h) and the line's index, sorted by CUB's radix sort over the
// 96 bits, stably. The host then refines what ties, as it does after its
// own radix sort: the GPU takes the part that is the same for every mix
// of keys.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gsort::kernels {

// The host's WideEntry (src/chunk_sort/cpu/pair_sort.h), field for field.
struct LineEntry {
  uint64_t hi;
  uint32_t lo;
  uint32_t index;
};
static_assert(sizeof(LineEntry) == 16, "a line entry is 16 bytes");

// CUB scratch bytes for sorting `count` entries.
size_t entry_sort_temp_bytes(uint64_t count);

constexpr int kEntryBits = 96;  // hi's 64, then lo's 32

// Enqueues the stable sort of count entries by (hi, lo) on `stream`,
// between a (holding them) and b; returns which of the two holds the sorted
// entries. Only the top `bits` of the 96 are sorted by: the host says
// when the bits below them are zero in every entry. Throws CudaError on
// failure.
LineEntry* sort_line_entries(LineEntry* a, LineEntry* b, uint64_t count, void* temp, size_t temp_bytes,
                             cudaStream_t stream, int bits = kEntryBits);

}  // namespace gsort::kernels
