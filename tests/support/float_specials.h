// Bit patterns of special IEEE 754 binary32 / binary64 values (NaNs of both
// signs and several payloads, infinities, signed zeros, subnormals, the
// extremes), each with its rank in totalOrder: equal ranks compare equal.
// Used to build float keys and to check the reference's float order.
#pragma once

#include <cstdint>
#include <vector>

namespace gsort_test {

struct FloatSpecial {
  uint64_t bits;
  int rank;
};

// Ascending by rank.
const std::vector<FloatSpecial>& float_specials_f32();
const std::vector<FloatSpecial>& float_specials_f64();
// The table for a 4- or 8-byte float.
const std::vector<FloatSpecial>& float_specials(uint32_t length);

}  // namespace gsort_test
