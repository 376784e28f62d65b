// Permuting on the device by a sorted order: out[i] = in[order[i] - base].
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gsort::gpu {

// One uint64 key column, for the LSD passes over wide keys.
void launch_gather_column(const uint64_t* column, const uint32_t* order, uint32_t index_base, uint64_t count,
                          uint64_t* out, cudaStream_t stream);

// Whole records (record_size bytes each). `records` and `out` must be
// 16-byte aligned; records are moved in the widest unit that divides the size.
void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order,
                           uint32_t index_base, uint64_t count, uint8_t* out, cudaStream_t stream);

}  // namespace gsort::gpu
