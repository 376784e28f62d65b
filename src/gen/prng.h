// Small pseudo-random generators whose output depends only on their seed,
// on every machine and standard library (std::*_distribution does not), so
// that the same arguments and seed give byte-identical data everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsort::gen {

// GCC and Clang's 128-bit integer; __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 Uint128;

// Independent random streams drawn from one --seed, one per purpose, so
// that (for example) the keys do not change when the record size does.
enum class Stream : uint64_t { kKeys = 1, kKeyTable = 2, kFiller = 3, kFloatSpecials = 4 };

// splitmix64: turns a counter into well-mixed words; used to seed xoshiro.
inline uint64_t splitmix64_next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Stores v little-endian, whatever the host's byte order.
inline void store_le64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// xoshiro256**: fast, small state, good statistical quality.
class Xoshiro256ss {
 public:
  // `substream` numbers independent generators within one stream.
  Xoshiro256ss(uint64_t seed, Stream stream, uint64_t substream = 0) {
    uint64_t sm = seed ^ (static_cast<uint64_t>(stream) * 0xD1B54A32D192ED03ull);
    sm = splitmix64_next(sm) ^ substream;
    for (uint64_t& word : s_) word = splitmix64_next(sm);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound), bound > 0. Multiply-and-reject (Lemire), so the
  // result is unbiased and needs no division in the common case.
  uint64_t below(uint64_t bound) {
    Uint128 m = static_cast<Uint128>(next()) * bound;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < bound) {
      const uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<Uint128>(next()) * bound;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Fills n random bytes.
  void fill(uint8_t* out, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) store_le64(out + i, next());
    if (i < n) {
      uint64_t v = next();
      for (; i < n; ++i, v >>= 8) out[i] = static_cast<uint8_t>(v);
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace gsort::gen
