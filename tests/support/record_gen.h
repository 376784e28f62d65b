// The tests' one data generator: deterministic keys and records (from Rng)
// in the distributions the tests need. Records are described by a RefSpec
// (tests/support/reference_sort.h), so the data and the reference that
// judges gsort's output speak of the same fields.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/reference_sort.h"
#include "tests/support/rng.h"

namespace gsort_test {

enum class Distribution { kRandom, kSorted, kReverse, kAllEqual, kFewDistinct, kLowEntropy };

inline constexpr Distribution kAllDistributions[] = {
    Distribution::kRandom,   Distribution::kSorted,      Distribution::kReverse,
    Distribution::kAllEqual, Distribution::kFewDistinct, Distribution::kLowEntropy};

const char* distribution_name(Distribution d);

// Writes the low `length` bytes of bits at p, in the given byte order.
void put_number(uint8_t* p, uint64_t bits, uint32_t length, bool big_endian);

// n random bytes.
std::vector<uint8_t> random_bytes(size_t n, Rng& rng);

// n keys of an unsigned integer type, in the distribution (few distinct: 5
// values; low entropy: three random words ANDed together). The same
// (n, distribution, seed) always gives the same keys.
template <typename K>
std::vector<K> make_keys(uint64_t n, Distribution d, uint64_t seed) {
  Rng rng(seed * 0x100000001b3ull + n);
  std::vector<K> keys(n);
  switch (d) {
    case Distribution::kRandom:
      for (K& k : keys) k = K(rng.next());
      break;
    case Distribution::kSorted:
    case Distribution::kReverse:
      for (K& k : keys) k = K(rng.next());
      std::sort(keys.begin(), keys.end());
      if (d == Distribution::kReverse) std::reverse(keys.begin(), keys.end());
      break;
    case Distribution::kAllEqual:
      std::fill(keys.begin(), keys.end(), K(rng.next()));
      break;
    case Distribution::kFewDistinct: {
      K pool[5];
      for (K& p : pool) p = K(rng.next());
      for (K& k : keys) k = pool[rng.next() % 5];
      break;
    }
    case Distribution::kLowEntropy:
      for (K& k : keys) k = K(rng.next() & rng.next() & rng.next());
      break;
  }
  return keys;
}

// How make_records shapes the records beyond their distribution.
struct RecordMix {
  Distribution distribution = Distribution::kRandom;
  unsigned float_special_percent = 25;  // float key fields set to a special value
  unsigned duplicate_percent = 0;       // records copied whole from an earlier one
  unsigned prefix_pool = 0;             // >0: bytes [0, 8) drawn from this many patterns
};

// n records for spec. Key fields follow the distribution (few distinct: 2
// to 12 key values; sorted and reverse: by the reference order); the other
// bytes stay random, so records with equal keys still differ and any
// instability shows. With no key fields the whole record is the key.
std::string make_records(Rng& rng, const RefSpec& spec, size_t n, const RecordMix& mix = {});

// 16-byte records: a little-endian u32 key below `distinct` at offset 0,
// the record number (u64) at offset 4, then filler: random, or 'x' when
// compressible. Key order and stability are visible in every record.
std::string numbered_u32_records(Rng& rng, size_t n, uint32_t distinct, bool compressible = false);

}  // namespace gsort_test
