// Public entry points of gsort's LSD radix sort (see radix_sort.cuh).
#include "kernels/device/radix_sort.cuh"

namespace gsort::kernels {

size_t radix_sort_pairs_temp_bytes(uint64_t n, int key_bits) {
  if (key_bits == 32) return kernels::radix_sort_temp_bytes<kernels::RadixPolicyU32, uint32_t>(n);
  if (key_bits == 64) return kernels::radix_sort_temp_bytes<kernels::RadixPolicyU64, uint64_t>(n);
  throw std::invalid_argument("radix_sort_pairs_temp_bytes: key_bits must be 32 or 64, got " +
                              std::to_string(key_bits));
}

void radix_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, int begin_bit,
                          int end_bit, void* temp, size_t temp_bytes, CUstream_st* stream) {
  kernels::radix_sort_pairs<kernels::RadixPolicyU64, uint64_t>(keys_in_out, values_in_out, n, begin_bit,
                                                       end_bit, temp, temp_bytes, stream);
}

void radix_sort_pairs(uint32_t* keys_in_out, uint32_t* values_in_out, uint64_t n, int begin_bit,
                          int end_bit, void* temp, size_t temp_bytes, CUstream_st* stream) {
  kernels::radix_sort_pairs<kernels::RadixPolicyU32, uint32_t>(keys_in_out, values_in_out, n, begin_bit,
                                                       end_bit, temp, temp_bytes, stream);
}

}  // namespace gsort::kernels
