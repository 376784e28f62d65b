// Whole records put in a sorted order on the device, for a sort whose
// records are all held there (src/chunk_sort/gpu/resident_sorter.h):
// out[i] = records[order[i]], record_size bytes each.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gsort::kernels {

// Enqueues the gather of `count` records on `stream`; `records` and `out`
// are device memory of whole records, `order` device indices into
// `records`. Throws CudaError if the launch fails.
void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint64_t count,
                           uint8_t* out, cudaStream_t stream);

}  // namespace gsort::kernels
