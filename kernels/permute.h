// Permuting a key column on the device by a sorted order, for the LSD
// passes over wide keys: out[i] = column[order[i] - index_base].
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gsort::kernels {

void launch_gather_column(const uint64_t* column, const uint32_t* order, uint32_t index_base, uint64_t count,
                          uint64_t* out, cudaStream_t stream);

}  // namespace gsort::kernels
