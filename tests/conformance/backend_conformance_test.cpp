// One conformance suite for every SortBackend: the CPU backend (with several
// pool sizes, since the CPU backend splits chunks above 2^16 records into
// one slice per thread) and, in CUDA builds, the GPU backend with a small
// memory cap so that chunks split into many device pieces, and with a cap
// that holds most cases whole. (The default cap, most of the device, costs
// about half a second per backend to allocate: too slow to build one per
// case.) Every case checks both ways to sort a chunk (sort_order, and a
// begin_chunk session fed in steps) against the independent reference
// (tests/support/reference_sort.h: a std::stable_sort of indices comparing
// decoded values), on data from the shared generator
// (tests/support/record_gen.h). Exact equality of the order checks
// sortedness, stability and that the result is a permutation at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/chunk_sort/hybrid/hybrid_backend.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "tests/support/float_specials.h"
#include "tests/support/layout_spec.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#endif

namespace gsort {
namespace {

using gsort_test::float_specials;
using gsort_test::put_number;
using gsort_test::random_bytes;
using gsort_test::Rng;

// The reference order of records under layout.
std::vector<uint32_t> reference_order(const KeyLayout& layout, const uint8_t* records, uint64_t count) {
  return gsort_test::reference_order(records, count, gsort_test::ref_spec_of(layout));
}

struct BackendParam {
  const char* name;
  bool gpu;
  unsigned threads;     // the pool's size (the GPU backend's host work runs on it too)
  uint64_t memory_cap;  // GPU only; 0 = the backend's default
  int algorithm = 0;    // GPU only: 0 CUB, 1 own radix sort, 2 own merge sort
  bool hybrid = false;  // GPU and CPU side by side (hybrid backend)
};

std::string param_name(const testing::TestParamInfo<BackendParam>& info) { return info.param.name; }
void PrintTo(const BackendParam& p, std::ostream* os) { *os << p.name; }  // gtest's "GetParam() = cpu"

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < std::min<size_t>(n, 48); ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return n > 48 ? s + "..." : s;
}

class BackendConformance : public testing::TestWithParam<BackendParam> {
 protected:
  void SetUp() override {
    const BackendParam& p = GetParam();
    if (p.gpu) {
#if GSORT_HAVE_CUDA
      std::string why;
      if (!gpu_usable(0, &why)) GTEST_SKIP() << "no usable GPU: " << why;
#else
      GTEST_SKIP() << "built without CUDA";
#endif
    }
    pool_ = std::make_unique<ThreadPool>(p.threads);
  }

  // The backend under test for one layout (which must outlive it).
  std::unique_ptr<SortBackend> make(const KeyLayout& layout) {
    const BackendParam& p = GetParam();
    if (!p.gpu) return make_cpu_backend(layout, *pool_);
#if GSORT_HAVE_CUDA
    GpuOptions options;
    options.device = 0;
    options.memory_cap = p.memory_cap;
    options.algorithm = p.algorithm == 1   ? GpuSortAlgorithm::kRadix
                        : p.algorithm == 2 ? GpuSortAlgorithm::kMerge
                                           : GpuSortAlgorithm::kCub;
    if (p.hybrid) {
      return make_hybrid_backend(layout, *pool_, make_cpu_backend(layout, *pool_),
                                 [&](ThreadPool& gpu_pool) { return make_gpu_backend(layout, options, gpu_pool); });
    }
    return make_gpu_backend(layout, options, *pool_);
#else
    return nullptr;
#endif
  }

  // Sorts `records` every way the backend offers and compares each result
  // with the reference. `backend` may be passed in to test reuse; a large
  // case may bring its own (cheaper) reference order.
  void check(const KeyLayout& layout, const std::vector<uint8_t>& records, const std::string& what,
             SortBackend* reuse = nullptr, const std::vector<uint32_t>* reference = nullptr) {
    SCOPED_TRACE(what);
    const uint32_t rs = layout.record_size();
    ASSERT_EQ(records.size() % rs, 0u);
    const uint64_t n = records.size() / rs;
    const auto rec = [&](uint64_t i) { return records.data() + i * rs; };

    std::vector<uint32_t> expected;
    if (reference) {
      expected = *reference;
      ASSERT_EQ(expected.size(), n);
    } else {
      expected = reference_order(layout, records.data(), n);
    }

    std::unique_ptr<SortBackend> owned;
    SortBackend* backend = reuse;
    if (!backend) {
      ASSERT_NO_THROW(owned = make(layout));
      ASSERT_NE(owned, nullptr);
      backend = owned.get();
    }
    const std::vector<uint8_t> input_copy = records;

    // sort_order, with guards on both sides of the output.
    {
      std::vector<uint32_t> order(n + 2, 0xDEADBEEF);
      backend->sort_order(records.data(), n, order.data() + 1);
      EXPECT_EQ(order.front(), 0xDEADBEEF) << "sort_order wrote before order[0]";
      EXPECT_EQ(order.back(), 0xDEADBEEF) << "sort_order wrote past order[count-1]";
      expect_order(layout, records, order.data() + 1, expected, "sort_order");
      ASSERT_TRUE(records == input_copy) << "sort_order changed its input";
    }
    // A session over a buffer that fills in several steps; the part not yet
    // "read" holds garbage, so a backend that looks ahead gets it wrong.
    {
      HostBuffer buffer = backend->allocate_host(std::max<size_t>(records.size(), 1));
      ASSERT_TRUE(static_cast<bool>(buffer));
      std::memset(buffer.data(), 0xCD, std::max<size_t>(records.size(), 1));
      std::unique_ptr<ChunkSortSession> session = backend->begin_chunk(buffer.data());
      std::vector<uint64_t> steps = {n / 7, n / 3, n / 2 + 1, n - n / 10, n};
      steps.erase(std::remove_if(steps.begin(), steps.end(), [&](uint64_t s) { return s == 0 || s > n; }),
                  steps.end());
      std::sort(steps.begin(), steps.end());
      steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
      if (steps.empty()) steps.push_back(0);
      uint64_t filled = 0;
      for (uint64_t s : steps) {
        // (memcpy may not be given the null data() of an empty input, even for 0 bytes.)
        if (s > filled) std::memcpy(buffer.data() + filled * rs, records.data() + filled * rs, (s - filled) * rs);
        filled = s;
        session->records_ready(s);
      }
      std::vector<uint32_t> order(n + 1, 0xDEADBEEF);
      session->finish(order.data());
      EXPECT_EQ(order.back(), 0xDEADBEEF) << "finish wrote past order[count-1]";
      expect_order(layout, records, order.data(), expected, "session");
    }
    // The order reported in parts (what the in-memory sort writes from), by
    // the backend and by a session: each reported part must already be final.
    {
      std::vector<uint32_t> order(n + 1, 0xDEADBEEF);
      check_parts(n, expected, order.data(), "sort_order_in_parts", [&](const OrderProgress& ready) {
        backend->sort_order_in_parts(records.data(), n, order.data(), ready);
      });
      EXPECT_EQ(order.back(), 0xDEADBEEF) << "sort_order_in_parts wrote past order[count-1]";
      expect_order(layout, records, order.data(), expected, "sort_order_in_parts");
    }
    {
      HostBuffer buffer = backend->allocate_host(std::max<size_t>(records.size(), 1));
      if (n > 0) std::memcpy(buffer.data(), records.data(), records.size());
      std::unique_ptr<ChunkSortSession> session = backend->begin_chunk(buffer.data());
      session->records_ready(n);
      std::vector<uint32_t> order(n + 1, 0xDEADBEEF);
      check_parts(n, expected, order.data(), "finish_in_parts",
                  [&](const OrderProgress& ready) { session->finish_in_parts(order.data(), n, ready); });
      expect_order(layout, records, order.data(), expected, "finish_in_parts");
    }
  }

  // Runs `sort` with a progress callback that checks what it is told: each
  // reported prefix grows, its new part already holds the expected indices,
  // and the last report is the whole count.
  void check_parts(uint64_t n, const std::vector<uint32_t>& expected, const uint32_t* order, const char* path,
                   const std::function<void(const OrderProgress&)>& sort) {
    uint64_t reported = 0, calls = 0;
    bool parts_ok = true;
    sort([&](uint64_t now) {
      ++calls;
      if (now < reported || now > n || (now == reported && n > 0)) {
        ADD_FAILURE() << path << ": reported " << now << " after " << reported << " of " << n;
        parts_ok = false;
        return;
      }
      if (parts_ok && !std::equal(order + reported, order + now, expected.begin() + static_cast<ptrdiff_t>(reported))) {
        ADD_FAILURE() << path << ": the part [" << reported << ", " << now << ") was reported before it was final";
        parts_ok = false;
      }
      reported = now;
    });
    EXPECT_GE(calls, 1u) << path << " never reported";
    EXPECT_EQ(reported, n) << path << " did not report the whole order";
  }

  // order must equal expected; on a mismatch, says whether it is a wrong
  // key order or only a wrong tie order.
  void expect_order(const KeyLayout& layout, const std::vector<uint8_t>& records, const uint32_t* order,
                    const std::vector<uint32_t>& expected, const char* path) {
    const uint32_t rs = layout.record_size();
    for (size_t i = 0; i < expected.size(); ++i) {
      if (order[i] == expected[i]) continue;
      std::string detail;
      if (order[i] >= expected.size()) {
        detail = "an index out of range";
      } else {
        const int c = layout.compare(records.data() + uint64_t{order[i]} * rs,
                                     records.data() + uint64_t{expected[i]} * rs);
        detail = c == 0 ? "a record with an equal key from the wrong input position (unstable)"
                        : "a record with a different key (wrong order)";
        detail += ": got index " + std::to_string(order[i]) + " key " +
                  hex(records.data() + uint64_t{order[i]} * rs, rs) + ", expected index " +
                  std::to_string(expected[i]) + " key " + hex(records.data() + uint64_t{expected[i]} * rs, rs);
      }
      ADD_FAILURE() << path << ": position " << i << " of " << expected.size() << " holds " << detail;
      return;
    }
  }

  std::unique_ptr<ThreadPool> pool_;
};

// ------------------------------------------------------------ data helpers

struct TypeName {
  const char* name;
  uint32_t length;
  bool is_float;
};
const TypeName kTypes[] = {{"u8", 1, false},  {"u16", 2, false}, {"u32", 4, false}, {"u64", 8, false},
                           {"i8", 1, false},  {"i16", 2, false}, {"i32", 4, false}, {"i64", 8, false},
                           {"f32", 4, true},  {"f64", 8, true}};

// count records of record_size bytes with one numeric value at `offset`:
// a mix of extremes, float specials, few-distinct and random values; the
// other bytes are random, so equal keys come from distinguishable records.
std::vector<uint8_t> numeric_records(const TypeName& t, bool be, uint32_t record_size, uint32_t offset,
                                     uint64_t count, Rng& rng) {
  std::vector<uint8_t> data = random_bytes(record_size * count, rng);
  const unsigned bits = 8 * t.length;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t few[4] = {rng() & mask, rng() & mask, 0, mask};
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t v;
    const unsigned pick = static_cast<unsigned>(rng() % 4);
    if (pick == 0 && t.is_float) {
      v = float_specials(t.length)[rng.below(float_specials(t.length).size())].bits;
    } else if (pick == 0) {
      v = few[rng() % 4] ^ (uint64_t{1} << (bits - 1)) * (rng() % 2);  // extremes and the sign bit
    } else if (pick == 1) {
      v = few[rng() % 4];
    } else {
      v = rng() & mask;
    }
    put_number(data.data() + i * record_size + offset, v, t.length, be);
  }
  return data;
}

// --------------------------------------------------------------- the cases

TEST_P(BackendConformance, EveryKeyTypeByteOrderAndDirection) {
  Rng rng(1);
  for (const TypeName& t : kTypes) {
    for (bool be : {false, true}) {
      if (be && t.length == 1) continue;
      for (const char* dir : {"", ":desc"}) {
        const std::string spec = "3:" + std::string(t.name) + (be ? "be" : "") + dir;
        const KeyLayout layout({parse_key_spec(spec)}, 16, false);
        check(layout, numeric_records(t, be, 16, 3, 3000, rng), spec);
      }
    }
  }
}

TEST_P(BackendConformance, FloatSpecialsOnly) {
  Rng rng(2);
  for (uint32_t len : {4u, 8u}) {
    for (const char* suffix : {"", "be", ":desc", "be:desc"}) {
      for (bool reverse : {false, true}) {
        const bool be = std::string(suffix).rfind("be", 0) == 0;
        std::vector<uint8_t> data = random_bytes(12 * 20000, rng);
        for (size_t i = 0; i < 20000; ++i) {
          const uint64_t v = float_specials(len)[rng.below(float_specials(len).size())].bits;
          put_number(data.data() + i * 12 + 2, v, len, be);
        }
        const std::string spec = "2:f" + std::to_string(8 * len) + suffix;
        const KeyLayout layout({parse_key_spec(spec)}, 12, reverse);
        check(layout, data, spec + (reverse ? " -r" : ""));
      }
    }
  }
}

TEST_P(BackendConformance, MultiFieldKeys) {
  Rng rng(3);
  const std::vector<std::vector<const char*>> layouts = {
      {"0:u8", "4:i32be:desc", "8:10", "20:f64", "28:2:desc"},  // 25 bytes of key
      {"0:u32", "4:u64be"},                                     // a number across the 8-byte prefix
      {"16:8", "0:16:desc"},                                    // out of record order
      {"30:u16:desc", "0:u8"},                                  // narrow: fits the prefix
  };
  for (const auto& specs : layouts) {
    std::vector<KeyField> fields;
    for (const char* s : specs) fields.push_back(parse_key_spec(s));
    std::vector<uint8_t> data = random_bytes(32 * 70001, rng);
    // Keys from few byte values, so later fields must break ties.
    for (size_t i = 0; i < 70001; ++i) {
      for (const KeyField& f : fields) {
        for (uint32_t k = 0; k < f.length; ++k) {
          const unsigned pick = static_cast<unsigned>(rng() % 3);
          data[i * 32 + f.offset + k] = pick == 0 ? 0x00 : (pick == 1 ? 0x80 : 0xFF);
        }
      }
    }
    for (bool reverse : {false, true}) {
      const KeyLayout layout(fields, 32, reverse);
      check(layout, data, std::string(specs[0]) + "... " + (reverse ? "-r" : ""));
    }
  }
}

TEST_P(BackendConformance, DescendingAndReverse) {
  Rng rng(4);
  std::vector<uint8_t> data = random_bytes(20 * 30000, rng);
  for (size_t i = 0; i < 30000; ++i) data[i * 20 + 1] = static_cast<uint8_t>(rng() % 5);  // ties in byte 1
  check(KeyLayout({parse_key_spec("1:1:desc")}, 20, false), data, "1:1:desc");
  check(KeyLayout({parse_key_spec("1:1")}, 20, true), data, "1:1 -r");
  check(KeyLayout({parse_key_spec("1:1:desc")}, 20, true), data, "1:1:desc -r (ascending)");
  check(KeyLayout({parse_key_spec("0:12:desc")}, 20, false), data, "0:12:desc");
  check(KeyLayout::whole_record(20, true), data, "whole record -r");
}

TEST_P(BackendConformance, DuplicatesAndAllEqualKeys) {
  Rng rng(5);
  for (uint64_t n : {uint64_t{1000}, uint64_t{65537}, uint64_t{200000}}) {
    std::vector<uint8_t> data = random_bytes(16 * n, rng);
    for (uint64_t i = 0; i < n; ++i) std::memset(data.data() + i * 16, 0x42, 10);  // key bytes 0..9 equal
    // All equal: the order must be the identity, with and without -r.
    check(KeyLayout({parse_key_spec("0:10")}, 16, false), data, "all equal, n=" + std::to_string(n));
    check(KeyLayout({parse_key_spec("0:10")}, 16, true), data, "all equal -r, n=" + std::to_string(n));
    check(KeyLayout({parse_key_spec("2:u64be")}, 16, false), data, "all equal u64, n=" + std::to_string(n));
    // Two keys only.
    for (uint64_t i = 0; i < n; ++i) data[i * 16 + 9] = static_cast<uint8_t>(rng() % 2);
    check(KeyLayout({parse_key_spec("0:10")}, 16, false), data, "two keys, n=" + std::to_string(n));
    check(KeyLayout({parse_key_spec("0:10:desc")}, 16, false), data, "two keys desc, n=" + std::to_string(n));
  }
}

TEST_P(BackendConformance, SortedAndReverseInput) {
  const uint64_t n = 100000;
  std::vector<uint8_t> asc(8 * n), desc(8 * n);
  for (uint64_t i = 0; i < n; ++i) {
    put_number(asc.data() + i * 8, i / 3, 4, true);  // runs of three equal keys
    put_number(asc.data() + i * 8 + 4, i, 4, false);
    put_number(desc.data() + i * 8, (n - i) / 3, 4, true);
    put_number(desc.data() + i * 8 + 4, i, 4, false);
  }
  const KeyLayout layout({parse_key_spec("0:u32be")}, 8, false);
  check(layout, asc, "sorted");
  check(layout, desc, "reverse sorted");
  const KeyLayout reversed({parse_key_spec("0:u32be")}, 8, true);
  check(reversed, asc, "sorted, -r");
  check(reversed, desc, "reverse sorted, -r");
}

TEST_P(BackendConformance, ZeroOneAndTwoRecords) {
  const KeyLayout layout({parse_key_spec("0:u16")}, 4, false);
  check(layout, {}, "no records");
  check(layout, {1, 0, 9, 9}, "one record");
  check(layout, {1, 0, 1, 1, 2, 0, 2, 2}, "two in order");
  check(layout, {2, 0, 1, 1, 1, 0, 2, 2}, "two out of order");
  check(layout, {7, 0, 1, 1, 7, 0, 2, 2}, "two equal");
  const KeyLayout whole = KeyLayout::whole_record(100, false);
  std::vector<uint8_t> two(200, 0x11);
  two[150] = 0x10;  // the second sorts first, at byte 50 of the key
  check(whole, two, "two 100-byte records differing at byte 50");
}

TEST_P(BackendConformance, RecordSizes) {
  Rng rng(6);
  struct Case {
    uint32_t record_size;
    uint64_t count;
    const char* key;  // nullptr: the whole record
  };
  const Case cases[] = {
      {1, 70000, nullptr},  {1, 5000, "0:u8:desc"}, {3, 50000, nullptr},   {3, 50000, "1:u16be"},
      {7, 40000, nullptr},  {7, 40000, "3:u32"},    {100, 20000, nullptr}, {100, 20000, "0:10"},
      {100, 20000, "90:f64"}, {4096, 2000, nullptr}, {4096, 2000, "4000:u64:desc"}, {5, 66000, "0:5"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> data = random_bytes(uint64_t{c.record_size} * c.count, rng);
    // Low entropy: many records share long key prefixes.
    for (auto& b : data) b = static_cast<uint8_t>(b & rng() & 0x03);
    const KeyLayout layout = c.key ? KeyLayout({parse_key_spec(c.key)}, c.record_size, false)
                                   : KeyLayout::whole_record(c.record_size, false);
    check(layout, data,
          "record size " + std::to_string(c.record_size) + ", key " + (c.key ? c.key : "whole record"));
  }
}

TEST_P(BackendConformance, WholeRecordKeysOf100BytesWithLongCommonPrefixes) {
  Rng rng(7);
  const uint64_t n = 30000;
  std::vector<uint8_t> data(100 * n, 'A');
  for (uint64_t i = 0; i < n; ++i) {
    // Differences only at bytes 8, 40, 97 and 99, each from few values.
    data[i * 100 + 8] = static_cast<uint8_t>('A' + rng() % 2);
    data[i * 100 + 40] = static_cast<uint8_t>('A' + rng() % 3);
    data[i * 100 + 97] = static_cast<uint8_t>('A' + rng() % 2);
    data[i * 100 + 99] = static_cast<uint8_t>('A' + rng() % 4);
  }
  check(KeyLayout::whole_record(100, false), data, "whole 100-byte records");
  check(KeyLayout::whole_record(100, true), data, "whole 100-byte records -r");
  check(KeyLayout({parse_key_spec("0:100:desc")}, 100, false), data, "0:100:desc");
}

TEST_P(BackendConformance, CountsAround2To16) {
  Rng rng(8);
  for (uint64_t n : {uint64_t{65535}, uint64_t{65536}, uint64_t{65537}, uint64_t{131073}}) {
    std::vector<uint8_t> data = random_bytes(12 * n, rng);
    for (uint64_t i = 0; i < n; ++i) data[i * 12] = static_cast<uint8_t>(rng() % 16);
    check(KeyLayout({parse_key_spec("0:u8")}, 12, false), data, "u8 key, n=" + std::to_string(n));
    check(KeyLayout({parse_key_spec("0:1"), parse_key_spec("1:u64:desc"), parse_key_spec("9:3")}, 12, false),
          data, "12-byte key, n=" + std::to_string(n));
  }
}

TEST_P(BackendConformance, TwoMillionRecords) {
  Rng rng(9);
  const uint64_t n = 2000000;
  std::vector<uint8_t> data = random_bytes(16 * n, rng);
  for (uint64_t i = 0; i < n; ++i) data[i * 16 + 7] = 0;  // u64 values below 2^56, some ties in the prefix
  for (uint64_t i = 0; i < n; i += 3) std::memcpy(data.data() + i * 16, data.data() + (i / 2) * 16, 8);
  // Reference by value: (u64 little-endian, bytes 8-9, input index) sorted.
  struct Row {
    uint64_t value;
    uint32_t bytes;
    uint32_t index;
  };
  std::vector<Row> rows(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t* r = data.data() + i * 16;
    uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = v << 8 | r[k];
    rows[i] = {v, uint32_t{r[8]} << 8 | r[9], static_cast<uint32_t>(i)};
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.value != b.value) return a.value < b.value;
    if (a.bytes != b.bytes) return a.bytes < b.bytes;
    return a.index < b.index;
  });
  std::vector<uint32_t> expected(n);
  for (uint64_t i = 0; i < n; ++i) expected[i] = rows[i].index;
  const KeyLayout layout({parse_key_spec("0:u64"), parse_key_spec("8:2")}, 16, false);
  std::unique_ptr<SortBackend> backend;
  ASSERT_NO_THROW(backend = make(layout));
  check(layout, data, "2M records", backend.get(), &expected);
  if (GetParam().gpu && GetParam().memory_cap != 0 && GetParam().memory_cap <= (uint64_t{8} << 20)) {
    // The small cap is there to split chunks: make sure it did.
    EXPECT_GT(backend->timings().pieces, 3u) << "a 32 MB chunk under an 8 MiB device cap";
  }
}

TEST_P(BackendConformance, OneBackendSortsManyChunks) {
  // A backend is reused chunk after chunk; sizes go up and down so that any
  // buffer it keeps must be resized, and stale state must not leak through.
  Rng rng(10);
  const KeyLayout layout({parse_key_spec("0:u32"), parse_key_spec("4:6")}, 12, false);
  std::unique_ptr<SortBackend> backend;
  ASSERT_NO_THROW(backend = make(layout));
  for (uint64_t n : {uint64_t{100000}, uint64_t{10}, uint64_t{0}, uint64_t{70000}, uint64_t{1}, uint64_t{3000}}) {
    std::vector<uint8_t> data = random_bytes(12 * n, rng);
    for (uint64_t i = 0; i < n; ++i) data[i * 12] = static_cast<uint8_t>(data[i * 12] & 0x0F);
    check(layout, data, "reused backend, n=" + std::to_string(n), backend.get());
  }
}

// merge_order: sorted runs laid end to end come out in the order a stable
// sort of the concatenation gives (equal keys: the lower run first). Run
// counts and sizes cover the one-thread and the parallel merges, empty runs
// and runs that share most of their keys.
TEST_P(BackendConformance, MergeOrderOfSortedRuns) {
  Rng rng(12);
  struct Case {
    std::vector<uint64_t> sizes;
    uint64_t distinct;  // keys drawn from this many values (ties across runs)
  };
  const Case cases[] = {{{1}, 10},
                        {{0, 0, 3, 0}, 2},
                        {{5, 7, 1, 0, 9}, 4},
                        {{20000, 1, 30000, 0, 5000}, 1000},
                        {{40000, 40000}, 1},
                        {{70000, 10, 3, 50000, 25000, 1, 60000, 9, 33333, 12, 2, 1}, 1u << 30},
                        {{100000, 100000, 100000}, 50}};
  // A 4-byte key with a 6-byte tail past the 8-byte prefix: ties in the
  // prefix are settled from the records.
  const KeyLayout layout({parse_key_spec("0:u32"), parse_key_spec("4:6")}, 16, false);
  std::unique_ptr<SortBackend> backend;
  ASSERT_NO_THROW(backend = make(layout));
  for (const Case& c : cases) {
    std::vector<uint8_t> data;
    std::vector<uint64_t> starts = {0};
    for (uint64_t size : c.sizes) {
      std::vector<uint8_t> run = random_bytes(16 * size, rng);
      for (uint64_t i = 0; i < size; ++i) {
        const uint32_t k = static_cast<uint32_t>(rng() % c.distinct);
        std::memcpy(run.data() + i * 16, &k, 4);
        std::memset(run.data() + i * 16 + 4, static_cast<int>(rng() % 2), 6);
      }
      for (uint32_t i : reference_order(layout, run.data(), size)) data.insert(data.end(), run.begin() + i * 16, run.begin() + (i + 1) * 16);
      starts.push_back(starts.back() + size);
    }
    const uint64_t n = starts.back();
    const std::vector<uint32_t> expected = reference_order(layout, data.data(), n);
    std::vector<uint32_t> order(n + 1, 0xDEADBEEF);
    backend->merge_order(data.data(), starts.data(), c.sizes.size(), order.data());
    EXPECT_EQ(order.back(), 0xDEADBEEF) << "merge_order wrote past order[count-1]";
    const std::string what = std::to_string(c.sizes.size()) + " runs, " + std::to_string(n) + " records";
    expect_order(layout, data, order.data(), expected, what.c_str());
  }
}

TEST_P(BackendConformance, SessionFedOneRecordAtATime) {
  Rng rng(11);
  const uint64_t n = 5000;
  const KeyLayout layout({parse_key_spec("2:i16be")}, 6, true);
  const std::vector<uint8_t> data = random_bytes(6 * n, rng);
  const std::vector<uint32_t> expected = reference_order(layout, data.data(), n);
  std::unique_ptr<SortBackend> backend;
  ASSERT_NO_THROW(backend = make(layout));
  HostBuffer buffer = backend->allocate_host(data.size());
  std::memset(buffer.data(), 0xEE, data.size());
  std::unique_ptr<ChunkSortSession> session = backend->begin_chunk(buffer.data());
  for (uint64_t i = 0; i < n; ++i) {
    std::memcpy(buffer.data() + i * 6, data.data() + i * 6, 6);
    session->records_ready(i + 1);
  }
  std::vector<uint32_t> order(n);
  session->finish(order.data());
  expect_order(layout, data, order.data(), expected, "session fed record by record");
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendConformance,
                         testing::Values(BackendParam{"cpu", false, 2, 0}, BackendParam{"cpu_1thread", false, 1, 0},
                                         BackendParam{"cpu_3threads", false, 3, 0}
#if GSORT_HAVE_CUDA
                                         ,
                                         BackendParam{"gpu", true, 2, uint64_t{8} << 20},
                                         BackendParam{"gpu_256MiB", true, 2, uint64_t{256} << 20},
                                         BackendParam{"gpu_own_radix", true, 2, uint64_t{8} << 20, 1},
                                         BackendParam{"gpu_own_merge", true, 2, uint64_t{8} << 20, 2},
                                         BackendParam{"hybrid", true, 2, uint64_t{256} << 20, 0, true}
#endif
                                         ),
                         param_name);

}  // namespace
}  // namespace gsort
