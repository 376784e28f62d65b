#include "tests/support/rng.h"

namespace gsort_test {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string Rng::bytes(size_t n) {
  std::string out(n, '\0');
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = next();
    for (size_t j = 0; j < 8 && i + j < n; ++j) out[i + j] = static_cast<char>(v >> (8 * j));
  }
  return out;
}

}  // namespace gsort_test
