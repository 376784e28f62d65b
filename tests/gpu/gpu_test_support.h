// Helpers for the GPU backend tests: GPU presence, backend options, and
// comparisons of orders; records and the reference order come from the
// shared generator and reference in tests/support/.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "tests/gpu/require_gpu.h"
#include "tests/support/layout_spec.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"

namespace gsort::test {

// The GPU tests' data: tests/support/record_gen.h's records, by default
// with 20% of records repeating an earlier one and 30% of float keys set to
// special values.
struct DataSpec : gsort_test::RecordMix {
  DataSpec() {
    duplicate_percent = 20;
    float_special_percent = 30;
  }
};

inline std::vector<uint8_t> make_records(const KeyLayout& layout, uint64_t count, uint64_t seed,
                                         const DataSpec& spec = {}) {
  gsort_test::Rng rng(seed);
  const std::string records = gsort_test::make_records(rng, gsort_test::ref_spec_of(layout), count, spec);
  return std::vector<uint8_t>(records.begin(), records.end());
}

// The independent reference's order (tests/support/reference_sort.h).
inline std::vector<uint32_t> reference_order(const KeyLayout& layout, const uint8_t* records, uint64_t count) {
  return gsort_test::reference_order(records, count, gsort_test::ref_spec_of(layout));
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
// The backend's order of `count` records into `got`, which must not run
// past its end (a guard value after it).
inline ::testing::AssertionResult backend_order(SortBackend& backend, const uint8_t* records, uint64_t count,
                                                std::vector<uint32_t>* got) {
  got->assign(count + 1, 0xDEADBEEFu);
  backend.sort_order(records, count, got->data());
  if ((*got)[count] != 0xDEADBEEFu) return ::testing::AssertionFailure() << "wrote past the end of the order";
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult sort_order_matches(SortBackend& backend, const std::vector<uint32_t>& want,
                                                     const uint8_t* records, uint64_t count) {
  std::vector<uint32_t> got;
  if (::testing::AssertionResult ran = backend_order(backend, records, count, &got); !ran) return ran;
  return same_order(want, got.data());
}

inline ::testing::AssertionResult sort_order_matches(SortBackend& backend, const KeyLayout& layout,
                                                     const uint8_t* records, uint64_t count) {
  return sort_order_matches(backend, reference_order(layout, records, count), records, count);
}

// The same verdict as sort_order_matches without sorting a reference: the
// order is a permutation of [0, count) whose neighbours are in order by the
// reference comparator, equal keys by index. A stable sort's order is the
// only one that passes, so this checks exactly that, in linear time (the
// reference sort of tens of millions of records takes a minute).
inline ::testing::AssertionResult sort_order_is_the_stable_order(SortBackend& backend, const KeyLayout& layout,
                                                                 const uint8_t* records, uint64_t count) {
  std::vector<uint32_t> got;
  if (::testing::AssertionResult ran = backend_order(backend, records, count, &got); !ran) return ran;
  std::vector<bool> seen(count, false);
  for (uint64_t i = 0; i < count; ++i) {
    if (got[i] >= count || seen[got[i]]) {
      return ::testing::AssertionFailure() << "position " << i << ": index " << got[i] << " out of range or repeated";
    }
    seen[got[i]] = true;
  }
  const gsort_test::RefSpec spec = gsort_test::ref_spec_of(layout);
  const uint32_t rs = layout.record_size();
  for (uint64_t i = 0; i + 1 < count; ++i) {
    const uint8_t* a = records + uint64_t{got[i]} * rs;
    const uint8_t* b = records + uint64_t{got[i + 1]} * rs;
    const int c = gsort_test::compare_records(a, b, spec);
    if (c > 0 || (c == 0 && got[i] > got[i + 1])) {
      return ::testing::AssertionFailure() << "positions " << i << " and " << i + 1 << " (indices " << got[i] << ", "
                                           << got[i + 1] << ") are out of order";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gsort::test
