// How many bytes two byte strings share at their start: equal runs at
// memcmp's speed, then the first differing byte found in a word.
#pragma once

#include <cstdint>
#include <cstring>

namespace gsort {

// Bytes at the start of a[0, n) and b[0, n) that are the same.
inline uint64_t common_prefix(const uint8_t* a, const uint8_t* b, uint64_t n) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the first differing byte is the lowest set one");
  uint64_t i = 0;
  while (i + 64 <= n && std::memcmp(a + i, b + i, 64) == 0) i += 64;  // equal runs at memcmp's speed
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return i + static_cast<uint64_t>(__builtin_ctzll(x ^ y)) / 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace gsort
