// Public entry points of gsort's own LSD radix sort (see own_radix_sort.cuh).
#include "kernels/own_radix_sort.cuh"

namespace gsort {

size_t own_radix_sort_pairs_temp_bytes(uint64_t n, int key_bits) {
  if (key_bits == 32) return own::radix_sort_temp_bytes<own::RadixPolicyU32, uint32_t>(n);
  if (key_bits == 64) return own::radix_sort_temp_bytes<own::RadixPolicyU64, uint64_t>(n);
  throw std::invalid_argument("own_radix_sort_pairs_temp_bytes: key_bits must be 32 or 64, got " +
                              std::to_string(key_bits));
}

void own_radix_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, int begin_bit,
                          int end_bit, void* temp, size_t temp_bytes, CUstream_st* stream) {
  own::radix_sort_pairs<own::RadixPolicyU64, uint64_t>(keys_in_out, values_in_out, n, begin_bit,
                                                       end_bit, temp, temp_bytes, stream);
}

void own_radix_sort_pairs(uint32_t* keys_in_out, uint32_t* values_in_out, uint64_t n, int begin_bit,
                          int end_bit, void* temp, size_t temp_bytes, CUstream_st* stream) {
  own::radix_sort_pairs<own::RadixPolicyU32, uint32_t>(keys_in_out, values_in_out, n, begin_bit,
                                                       end_bit, temp, temp_bytes, stream);
}

}  // namespace gsort
