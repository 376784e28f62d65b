// Public entry points of gsort's merge sort (see merge_sort.cuh).
#include "kernels/device/merge_sort.cuh"
#include "kernels/device/sorts.h"

namespace gsort::kernels {

size_t merge_sort_pairs_temp_bytes(uint64_t n) {
  return kernels::merge_sort_temp_bytes<kernels::MergePolicyDefault>(n);
}

void merge_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, void* temp,
                          size_t temp_bytes, CUstream_st* stream) {
  kernels::merge_sort_pairs<kernels::MergePolicyDefault>(keys_in_out, values_in_out, n, temp, temp_bytes,
                                                 stream);
}

}  // namespace gsort::kernels
