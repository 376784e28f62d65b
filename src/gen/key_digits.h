// The key of each generated record, before it is stored: one digit per
// normalised key byte, each in [0, radix). radix is 256 for binary keys and
// 95 for gensort's printable ASCII keys (characters ' ' to '~').
//
// Most distributions are made in normalised order (keys/key_field.h), where
// comparing digit strings is comparing keys, so "sorted" is simply a counter
// and works for every field type and for descending fields alike.
#pragma once

#include <cstdint>

#include "src/gen/distribution.h"
#include "src/gen/prng.h"

namespace gsort::gen {

struct KeyDigitsParams {
  Distribution distribution = Distribution::kUniform;
  uint32_t width = 0;    // digits per key, > 0
  uint32_t radix = 256;  // 2 .. 256
  uint64_t records = 0;  // total records, for spreading sorted keys
  uint64_t distinct = 16;
  uint64_t seed = 1;
};

class KeyDigits {
 public:
  explicit KeyDigits(const KeyDigitsParams& params);

  uint32_t width() const { return p_.width; }

  // True when the digits are the fields' bytes as stored rather than in
  // normalised order (uniform and lowentropy). ANDing stored bits is what
  // skews CUB's low-entropy keys toward zero; ANDing normalised bits would
  // skew float keys toward -NaN instead.
  bool stored_order() const {
    return p_.distribution == Distribution::kUniform || p_.distribution == Distribution::kLowEntropy;
  }

  // Writes width() digits for record `row`. Rows must come in order 0, 1,
  // 2, ...: the random stream is sequential.
  void next(uint64_t row, uint8_t* digits);

 private:
  void random_digits(Xoshiro256ss& rng, uint8_t* digits, uint32_t count);
  void counter_digits(uint64_t rank, uint8_t* digits);
  // The k-th of the keys that equal and few draw from. Made again on each
  // use rather than stored: keys can be as wide as a 256 MiB record.
  void chosen_key(uint64_t k, uint8_t* digits);

  KeyDigitsParams p_;
  Xoshiro256ss rng_;
  // sorted/reverse: the leading `counter_width_` digits hold the rank scaled
  // to radix^counter_width_ (`counter_range_`), which fits in 64 bits.
  uint32_t counter_width_ = 0;
  Uint128 counter_range_ = 1;
};

}  // namespace gsort::gen
