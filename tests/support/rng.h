// The tests' one random source: splitmix64, deterministic from its seed and
// the same stream on every platform and standard library (unlike
// std::uniform_int_distribution). A UniformRandomBitGenerator, so it also
// serves where code writes rng() or passes it to <random> and <algorithm>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace gsort_test {

class Rng {
 public:
  using result_type = uint64_t;
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next();
  uint64_t operator()() { return next(); }
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return std::numeric_limits<uint64_t>::max(); }

  // Uniform in [0, n); n > 0.
  uint64_t below(uint64_t n) { return next() % n; }
  // Uniform in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }
  bool chance(unsigned percent) { return below(100) < percent; }
  // n random bytes.
  std::string bytes(size_t n);

 private:
  uint64_t state_;
};

}  // namespace gsort_test
