#include "src/gen/float_specials.h"

#include "src/gen/field_bytes.h"

namespace gsort::gen {
namespace {

struct FloatBits {
  uint64_t sign, exponent, mantissa;
};

FloatBits float_bits(const KeyField& f) {
  if (f.length == 4) return {uint64_t{1} << 31, 0xFFull << 23, (uint64_t{1} << 23) - 1};
  return {uint64_t{1} << 63, 0x7FFull << 52, (uint64_t{1} << 52) - 1};
}

// Positive specials; each is also used with the sign bit set.
uint64_t positive_special(const FloatBits& b, uint64_t which) {
  const uint64_t quiet = (b.mantissa >> 1) + 1;  // top mantissa bit
  switch (which) {
    case 0: return 0;                                     // 0.0
    case 1: return b.exponent;                            // inf
    case 2: return b.exponent | quiet;                    // quiet NaN
    case 3: return b.exponent | 1;                        // signalling NaN, smallest payload
    case 4: return b.exponent | b.mantissa;               // NaN, largest payload
    case 5: return 1;                                     // smallest subnormal
    case 6: return b.mantissa;                            // largest subnormal
    case 7: return b.mantissa + 1;                        // smallest normal
    default: return (b.exponent - (b.mantissa + 1)) | b.mantissa;  // largest finite
  }
}

constexpr uint64_t kPositiveSpecials = 9;

}  // namespace

void maybe_store_float_special(const KeyField& f, uint8_t* record, Xoshiro256ss& rng) {
  const uint64_t r = rng.next();
  if ((r & 15) != 0) return;
  const FloatBits b = float_bits(f);
  const uint64_t which = (r >> 8) % (2 * kPositiveSpecials);
  uint64_t v = positive_special(b, which / 2);
  if (which & 1) v |= b.sign;
  store_number(f, v, record);
}

void make_float_finite(const KeyField& f, uint8_t* record) {
  const FloatBits b = float_bits(f);
  const uint64_t v = load_number(f, record);
  if ((v & b.exponent) != b.exponent) return;
  const uint64_t top_exponent_bit = b.sign >> 1;
  store_number(f, v & ~top_exponent_bit, record);
}

}  // namespace gsort::gen
