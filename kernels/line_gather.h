// A sorted chunk's lines written out on the device, in the host's final
// order, into one buffer of the chunk's size, rather than by the host's
// threads a line at a time from anywhere in the chunk. Two callers: the
// GPU that filled and sorted a chunk's entries holds its text already
// and sends the buffer back across the bus as large pieces
// (src/chunk_sort/lines/gpu/device_entry_sort.h); a run held in the GPU's
// memory is gathered straight into its place in the store from a copy of
// the chunk (src/merge/device/device_line_gather.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gsort::kernels {

// Scratch bytes gather_sorted_lines needs for `count` lines.
size_t line_gather_temp_bytes(uint64_t count);

// Enqueues on `stream`: out receives the lines order[0, count) end to end,
// each with its terminator, as they lie in `text` (the chunk's bytes from
// its first line on; line i is text[starts[i] - starts[0], starts[i + 1] -
// starts[0]), terminator last). `lengths` and `offsets` are count entries
// of scratch each. Throws CudaError on failure.
void gather_sorted_lines(const uint8_t* text, const uint64_t* starts, const uint32_t* order, uint64_t count,
                         uint64_t* lengths, uint64_t* offsets, uint8_t* out, void* temp, size_t temp_bytes,
                         cudaStream_t stream);

}  // namespace gsort::kernels
