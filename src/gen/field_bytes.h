// A numeric key field's stored value, and the inverse of gsort's key
// normalisation (keys/key_field.h), so that the generator can pick a key in
// normalised order and store the value that sorts there.
#pragma once

#include <cstdint>

#include "src/keys/key_field.h"

namespace gsort::gen {

inline uint64_t field_mask(const KeyField& f) {
  return f.length == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.length)) - 1;
}

inline uint64_t load_number(const KeyField& f, const uint8_t* record) {
  const uint8_t* p = record + f.offset;
  uint64_t v = 0;
  for (uint32_t i = 0; i < f.length; ++i) {
    const uint32_t byte = f.big_endian ? i : f.length - 1 - i;
    v = (v << 8) | p[byte];
  }
  return v;
}

inline void store_number(const KeyField& f, uint64_t v, uint8_t* record) {
  uint8_t* p = record + f.offset;
  for (uint32_t i = 0; i < f.length; ++i) {
    const uint32_t byte = f.big_endian ? f.length - 1 - i : i;
    p[byte] = static_cast<uint8_t>(v >> (8 * i));
  }
}

// The stored value v with normalised_number(f, v) == n.
inline uint64_t denormalised_number(const KeyField& f, uint64_t n) {
  const uint64_t mask = field_mask(f);
  const uint64_t sign = uint64_t{1} << (8 * f.length - 1);
  n &= mask;
  if (f.descending) n = ~n & mask;
  if (f.kind == KeyKind::kSigned) return n ^ sign;
  if (f.kind == KeyKind::kFloat) return (n & sign) ? (n ^ sign) : (~n & mask);
  return n;
}

}  // namespace gsort::gen
