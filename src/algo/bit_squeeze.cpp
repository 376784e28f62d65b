#include "src/algo/bit_squeeze.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gsort {

#if defined(__x86_64__)
bool fast_bit_gather() {
  static const bool fast = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
  }();
  return fast;
}

__attribute__((target("bmi2"))) uint64_t gather_bits(uint64_t w, uint64_t mask) { return _pext_u64(w, mask); }
#else
bool fast_bit_gather() { return false; }
uint64_t gather_bits(uint64_t w, uint64_t mask) {
  uint64_t out = 0;
  int at = 0;
  for (int b = 0; b < 64; ++b) {
    if (((mask >> b) & 1) != 0) out |= ((w >> b) & 1) << at++;
  }
  return out;
}
#endif

}  // namespace gsort
