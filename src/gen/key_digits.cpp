#include "src/gen/key_digits.h"

#include <cstring>

namespace gsort::gen {
namespace {

// Each key byte of lowentropy is the AND of this many random bytes, so a
// bit is set with probability 1/8.
constexpr int kLowEntropyAnds = 3;

}  // namespace

KeyDigits::KeyDigits(const KeyDigitsParams& params) : p_(params), rng_(params.seed, Stream::kKeys) {
  const Uint128 limit = static_cast<Uint128>(1) << 64;
  while (counter_width_ < p_.width && counter_range_ * p_.radix <= limit) {
    counter_range_ *= p_.radix;
    ++counter_width_;
  }
}

void KeyDigits::next(uint64_t row, uint8_t* digits) {
  switch (p_.distribution) {
    case Distribution::kUniform:
      random_digits(rng_, digits, p_.width);
      return;
    case Distribution::kSorted:
      counter_digits(row, digits);
      return;
    case Distribution::kReverse:
      counter_digits(p_.records - 1 - row, digits);
      return;
    case Distribution::kEqual:
      chosen_key(0, digits);
      return;
    case Distribution::kFew:
      chosen_key(rng_.below(p_.distinct), digits);
      return;
    case Distribution::kLowEntropy: {
      uint8_t more[64];
      random_digits(rng_, digits, p_.width);
      for (int pass = 1; pass < kLowEntropyAnds; ++pass) {
        for (uint32_t done = 0; done < p_.width; done += sizeof more) {
          const uint32_t n = p_.width - done < sizeof more ? p_.width - done : sizeof more;
          random_digits(rng_, more, n);
          for (uint32_t i = 0; i < n; ++i) digits[done + i] &= more[i];  // stays below radix
        }
      }
      return;
    }
  }
}

void KeyDigits::random_digits(Xoshiro256ss& rng, uint8_t* digits, uint32_t count) {
  if (p_.radix == 256) {
    rng.fill(digits, count);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) digits[i] = static_cast<uint8_t>(rng.below(p_.radix));
}

void KeyDigits::chosen_key(uint64_t k, uint8_t* digits) {
  Xoshiro256ss key_rng(p_.seed, Stream::kKeyTable, k);
  random_digits(key_rng, digits, p_.width);
}

// rank in [0, records) scaled to the leading digits, so keys are spread
// over the whole key space and still never decrease with the rank. The
// digits after the counter are random while the counter alone is strictly
// increasing (it has room for every rank), and zero otherwise.
void KeyDigits::counter_digits(uint64_t rank, uint8_t* digits) {
  uint64_t value = static_cast<uint64_t>(static_cast<Uint128>(rank) * counter_range_ / p_.records);
  for (uint32_t i = counter_width_; i-- > 0;) {
    digits[i] = static_cast<uint8_t>(value % p_.radix);
    value /= p_.radix;
  }
  const uint32_t tail = p_.width - counter_width_;
  if (tail == 0) return;
  if (counter_range_ >= p_.records) {
    random_digits(rng_, digits + counter_width_, tail);
  } else {
    std::memset(digits + counter_width_, 0, tail);
  }
}

}  // namespace gsort::gen
