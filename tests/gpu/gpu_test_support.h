// Helpers for the GPU backend tests: record generators and the host
// reference order (std::stable_sort by KeyLayout::compare).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "tests/gpu/require_gpu.h"

namespace gsort::test {

struct DataSpec {
  double duplicate_fraction = 0.2;  // records copied from an earlier record
  bool float_specials = true;       // NaN, +-0, +-inf, denormals in float fields
  bool low_entropy = false;         // bytes ANDed together: many equal bytes
  unsigned prefix_pool = 0;         // >0: bytes [0, 8) drawn from this many patterns
};

inline void put_bits(uint8_t* p, uint64_t bits, uint32_t length, bool big_endian) {
  for (uint32_t i = 0; i < length; ++i) {
    const uint8_t b = static_cast<uint8_t>(bits >> (8 * i));
    p[big_endian ? length - 1 - i : i] = b;
  }
}

inline std::vector<uint8_t> make_records(const KeyLayout& layout, uint64_t count, uint64_t seed,
                                         const DataSpec& spec = {}) {
  const uint32_t size = layout.record_size();
  std::vector<uint8_t> records(count * size);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < records.size(); i += 8) {
    uint64_t v = rng();
    if (spec.low_entropy) v &= rng() & rng();
    std::memcpy(&records[i], &v, std::min<size_t>(8, records.size() - i));
  }
  static const uint32_t f32_specials[] = {0x7fc00000, 0xffc00000, 0x7f800001, 0x00000000, 0x80000000, 0x7f800000,
                                          0xff800000, 0x00000001, 0x80000001, 0x3f800000, 0xbf800000};
  static const uint64_t f64_specials[] = {0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001,
                                          0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000,
                                          0xfff0000000000000, 0x0000000000000001, 0x8000000000000001,
                                          0x3ff0000000000000, 0xbff0000000000000};
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<uint64_t> patterns(spec.prefix_pool);
  for (uint64_t& p : patterns) p = rng();
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* r = records.data() + i * size;
    if (spec.prefix_pool) std::memcpy(r, &patterns[rng() % spec.prefix_pool], std::min<uint32_t>(size, 8));
    if (spec.float_specials) {
      for (const KeyField& f : layout.fields()) {
        if (f.kind != KeyKind::kFloat || unit(rng) > 0.3) continue;
        if (f.length == 4) put_bits(r + f.offset, f32_specials[rng() % 11], 4, f.big_endian);
        if (f.length == 8) put_bits(r + f.offset, f64_specials[rng() % 11], 8, f.big_endian);
      }
    }
    if (i > 0 && unit(rng) < spec.duplicate_fraction) {
      std::memcpy(r, records.data() + (rng() % i) * size, size);
    }
  }
  return records;
}

inline std::vector<uint32_t> reference_order(const KeyLayout& layout, const uint8_t* records, uint64_t count) {
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  const uint32_t size = layout.record_size();
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return layout.compare(records + uint64_t{a} * size, records + uint64_t{b} * size) < 0;
  });
  return order;
}

inline std::vector<uint8_t> apply_order(const std::vector<uint32_t>& order, const uint8_t* records, uint32_t size) {
  std::vector<uint8_t> out(order.size() * size);
  for (size_t i = 0; i < order.size(); ++i) std::memcpy(&out[i * size], records + uint64_t{order[i]} * size, size);
  return out;
}

// Compares orders, reporting the first difference only.
inline ::testing::AssertionResult same_order(const std::vector<uint32_t>& want, const uint32_t* got) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] != got[i]) {
      return ::testing::AssertionFailure() << "position " << i << " of " << want.size() << ": want index " << want[i]
                                           << ", got " << got[i];
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult same_bytes(const std::vector<uint8_t>& want, const uint8_t* got, uint32_t size) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] != got[i]) {
      return ::testing::AssertionFailure() << "byte " << i % size << " of record " << i / size << " of "
                                           << want.size() / size << " differs";
    }
  }
  return ::testing::AssertionSuccess();
}

inline KeyField field(const std::string& spec) { return parse_key_spec(spec); }

inline GpuOptions options_with_cap(uint64_t cap) {
  GpuOptions o;
  o.memory_cap = cap;
  return o;
}

// A host pool of `threads` threads for backends under test, one per size,
// kept for the test program's life (tests run one at a time).
inline ThreadPool& test_pool(unsigned threads = 4) {
  static std::map<unsigned, std::unique_ptr<ThreadPool>> pools;
  std::unique_ptr<ThreadPool>& pool = pools[threads];
  if (!pool) pool = std::make_unique<ThreadPool>(threads);
  return *pool;
}

// Sorts with the backend and compares with the reference; also checks that
// nothing is written past the end of the order.
inline ::testing::AssertionResult sort_order_matches(SortBackend& backend, const std::vector<uint32_t>& want,
                                                     const uint8_t* records, uint64_t count) {
  std::vector<uint32_t> got(count + 1, 0xDEADBEEFu);
  backend.sort_order(records, count, got.data());
  if (got[count] != 0xDEADBEEFu) return ::testing::AssertionFailure() << "wrote past the end of the order";
  return same_order(want, got.data());
}

inline ::testing::AssertionResult sort_order_matches(SortBackend& backend, const KeyLayout& layout,
                                                     const uint8_t* records, uint64_t count) {
  return sort_order_matches(backend, reference_order(layout, records, count), records, count);
}

}  // namespace gsort::test
