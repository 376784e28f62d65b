#include "tests/support/record_gen.h"

#include <cstring>

#include "tests/support/float_specials.h"

namespace gsort_test {

namespace {

// Key bytes (or whole records) copied from one of a few prototypes.
void copy_key(uint8_t* record, const uint8_t* prototype, const RefSpec& spec) {
  if (spec.keys.empty()) std::memcpy(record, prototype, spec.record_size);
  for (const RefKey& k : spec.keys) std::memcpy(record + k.offset, prototype + k.offset, k.length);
}

void maybe_float_special(uint8_t* record, const RefSpec& spec, unsigned percent, Rng& rng) {
  for (const RefKey& k : spec.keys) {
    if (k.kind != RefKind::kFloat || !rng.chance(percent)) continue;
    const auto& specials = float_specials(k.length);
    put_number(record + k.offset, specials[rng.below(specials.size())].bits, k.length, k.big_endian);
  }
}

}  // namespace

const char* distribution_name(Distribution d) {
  switch (d) {
    case Distribution::kRandom: return "Random";
    case Distribution::kSorted: return "Sorted";
    case Distribution::kReverse: return "Reverse";
    case Distribution::kAllEqual: return "AllEqual";
    case Distribution::kFewDistinct: return "FewDistinct";
    case Distribution::kLowEntropy: return "LowEntropy";
  }
  return "?";
}

void put_number(uint8_t* p, uint64_t bits, uint32_t length, bool big_endian) {
  for (uint32_t i = 0; i < length; ++i) {
    p[big_endian ? length - 1 - i : i] = static_cast<uint8_t>(bits >> (8 * i));
  }
}

std::vector<uint8_t> random_bytes(size_t n, Rng& rng) {
  const std::string s = rng.bytes(n);
  return std::vector<uint8_t>(s.begin(), s.end());
}

std::string make_records(Rng& rng, const RefSpec& spec, size_t n, const RecordMix& mix) {
  const uint32_t rs = spec.record_size;
  const Distribution d = mix.distribution;
  std::string data = rng.bytes(n * rs);
  auto* base = reinterpret_cast<uint8_t*>(data.data());
  const size_t distinct = d == Distribution::kAllEqual ? 1 : static_cast<size_t>(rng.range(2, 12));
  std::vector<std::string> prototypes;
  for (size_t i = 0; i < distinct; ++i) prototypes.push_back(rng.bytes(rs));
  std::vector<uint64_t> prefixes(mix.prefix_pool);
  for (uint64_t& p : prefixes) p = rng.next();
  for (size_t r = 0; r < n; ++r) {
    uint8_t* record = base + r * rs;
    if (d == Distribution::kLowEntropy) {
      for (uint32_t i = 0; i < rs; ++i) record[i] = static_cast<uint8_t>(rng.next() & rng.next() & rng.next());
    }
    if (d == Distribution::kFewDistinct || d == Distribution::kAllEqual) {
      copy_key(record, reinterpret_cast<const uint8_t*>(prototypes[rng.below(distinct)].data()), spec);
    }
    if (mix.prefix_pool) put_number(record, prefixes[rng.below(mix.prefix_pool)], std::min<uint32_t>(rs, 8), false);
    if (d != Distribution::kAllEqual) maybe_float_special(record, spec, mix.float_special_percent, rng);
    if (r > 0 && mix.duplicate_percent && rng.chance(mix.duplicate_percent)) {
      std::memcpy(record, base + rng.below(r) * rs, rs);
    }
  }
  if (d == Distribution::kSorted || d == Distribution::kReverse) {
    RefSpec order = spec;
    order.unique = false;
    order.reverse = spec.reverse != (d == Distribution::kReverse);
    data = reference_sort(data, order);
  }
  return data;
}

std::string numbered_u32_records(Rng& rng, size_t n, uint32_t distinct, bool compressible) {
  std::string data = compressible ? std::string(n * 16, 'x') : rng.bytes(n * 16);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t key = static_cast<uint32_t>(rng.below(distinct));
    std::memcpy(&data[i * 16], &key, 4);
    const uint64_t number = i;
    std::memcpy(&data[i * 16 + 4], &number, 8);
  }
  return data;
}

}  // namespace gsort_test
