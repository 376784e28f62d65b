// Public entry points of gsort's own merge sort and two-run merge
// (see merge_sort.cuh).
#include "kernels/device/merge_sort.cuh"
#include "kernels/device/sorts.h"

namespace gsort {

size_t merge_sort_pairs_temp_bytes(uint64_t n) {
  return kernels::merge_sort_temp_bytes<kernels::MergePolicyDefault>(n);
}

void merge_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, void* temp,
                          size_t temp_bytes, CUstream_st* stream) {
  kernels::merge_sort_pairs<kernels::MergePolicyDefault>(keys_in_out, values_in_out, n, temp, temp_bytes,
                                                 stream);
}

size_t merge_pairs_temp_bytes(uint64_t a_n, uint64_t b_n) {
  return kernels::merge_two_temp_bytes<kernels::MergePolicyDefault>(a_n, b_n);
}

void merge_pairs(const uint64_t* a_keys, const uint32_t* a_values, uint64_t a_n,
                     const uint64_t* b_keys, const uint32_t* b_values, uint64_t b_n,
                     uint64_t* out_keys, uint32_t* out_values, void* temp, size_t temp_bytes,
                     CUstream_st* stream) {
  kernels::merge_two<kernels::MergePolicyDefault>(a_keys, a_values, a_n, b_keys, b_values, b_n, out_keys,
                                          out_values, temp, temp_bytes, stream);
}

}  // namespace gsort
