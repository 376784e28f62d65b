// GpuBackend::sort_order against the host reference: key types, widths,
// multi-field keys and awkward inputs.
#include <gtest/gtest.h>

#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

constexpr uint64_t kCap = uint64_t{64} << 20;

TEST(GpuSortOrder, EveryNumericTypeOrderAndDirection) {
  GSORT_REQUIRE_GPU();
  for (const char* type : {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"}) {
    for (const bool be : {false, true}) {
      for (const bool desc : {false, true}) {
        const std::string spec = std::string("3:") + type + (be ? "be" : "") + (desc ? ":desc" : "");
        const KeyLayout layout({field(spec)}, 13, false);
        GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
        const auto records = test::make_records(layout, 3000, spec.size() * 31 + be + 2 * desc);
        EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), 3000)) << spec;
      }
    }
  }
}

TEST(GpuSortOrder, LargeNumericChunks) {
  GSORT_REQUIRE_GPU();
  for (const char* spec : {"0:u32", "4:f64be:desc", "2:i16"}) {
    const KeyLayout layout({field(spec)}, 12, false);
    GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
    const uint64_t count = 1000000;
    const auto records = test::make_records(layout, count, 11);
    EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), count)) << spec;
  }
}

TEST(GpuSortOrder, ByteKeysOfManyWidths) {
  GSORT_REQUIRE_GPU();
  for (const uint32_t width : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 10u, 15u, 16u, 17u, 24u, 31u, 39u}) {
    for (const bool desc : {false, true}) {
      const std::string spec = "1:" + std::to_string(width) + (desc ? ":desc" : "");
      const KeyLayout layout({field(spec)}, 40, false);
      GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
      test::DataSpec data;
      data.distribution = gsort_test::Distribution::kLowEntropy;
      const auto records = test::make_records(layout, 4000, width * 2 + desc, data);
      EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), 4000)) << spec;
    }
  }
}

TEST(GpuSortOrder, WholeRecordKeys) {
  GSORT_REQUIRE_GPU();
  for (const bool reverse : {false, true}) {
    const KeyLayout layout = KeyLayout::whole_record(100, reverse);  // 13 words
    GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
    test::DataSpec data;
    data.prefix_pool = 5;
    data.duplicate_percent = 30;
    const auto records = test::make_records(layout, 20000, 5 + reverse, data);
    EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), 20000)) << "reverse " << reverse;
  }
}

TEST(GpuSortOrder, MultiFieldKeys) {
  GSORT_REQUIRE_GPU();
  const std::vector<std::vector<std::string>> layouts = {
      {"0:i16:desc", "5:3", "10:f32be"},           // 9 bytes: two words
      {"0:u8", "1:u8:desc", "2:u64be", "10:5"},   // 15 bytes
      {"12:4:desc", "0:f64"},                      // bytes, then a number
      {"3:i32be", "3:i32be:desc"},                 // the same bytes twice
      {"0:u16", "2:u16"},                          // 4 bytes: one u32 pass
  };
  for (const auto& specs : layouts) {
    std::vector<KeyField> fields;
    std::string name;
    for (const std::string& s : specs) {
      fields.push_back(field(s));
      name += s + " ";
    }
    const KeyLayout layout(fields, 17, false);
    GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
    test::DataSpec data;
    data.distribution = gsort_test::Distribution::kLowEntropy;
    const auto records = test::make_records(layout, 5000, name.size(), data);
    EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), 5000)) << name;
  }
}

TEST(GpuSortOrder, PinnedAndPageableOrdersAcrossBounceSlices) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:u32")}, 4, false);
  GpuBackend backend(layout, test::options_with_cap(uint64_t{256} << 20), test::test_pool());
  const uint64_t count = 9 * (uint64_t{1} << 20) + 123;  // three 4M-index slices of the bounce buffer
  const auto records = test::make_records(layout, count, 21);
  const auto want = test::reference_order(layout, records.data(), count);
  EXPECT_TRUE(test::sort_order_matches(backend, want, records.data(), count)) << "pageable order";
  HostBuffer pinned = backend.allocate_host((count + 1) * 4);
  uint32_t* order = reinterpret_cast<uint32_t*>(pinned.data());
  order[count] = 0xDEADBEEFu;
  backend.sort_order(records.data(), count, order);
  EXPECT_EQ(order[count], 0xDEADBEEFu);
  EXPECT_TRUE(test::same_order(want, order)) << "pinned order";
}

TEST(GpuSortOrder, TinyCounts) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
  for (const uint64_t count : {0ull, 1ull, 2ull, 3ull}) {
    const auto records = test::make_records(layout, count == 0 ? 1 : count, count);
    EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), count)) << count << " records";
  }
}

TEST(GpuSortOrder, EqualSortedAndReversedInputs) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuBackend backend(layout, test::options_with_cap(kCap), test::test_pool());
  const uint64_t count = 30000;
  std::vector<uint8_t> equal(count * 100, 0x5A);
  EXPECT_TRUE(test::sort_order_matches(backend, layout, equal.data(), count)) << "all equal";
  const auto random = test::make_records(layout, count, 3);
  const auto sorted = test::apply_order(test::reference_order(layout, random.data(), count), random.data(), 100);
  EXPECT_TRUE(test::sort_order_matches(backend, layout, sorted.data(), count)) << "sorted";
  std::vector<uint8_t> reversed(sorted.size());
  for (uint64_t i = 0; i < count; ++i) {
    std::copy_n(&sorted[(count - 1 - i) * 100], 100, &reversed[i * 100]);
  }
  EXPECT_TRUE(test::sort_order_matches(backend, layout, reversed.data(), count)) << "reversed";
}

TEST(GpuSortOrder, LargeGensortChunkInOneGroupAndMerged) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  const uint64_t count = 3000000;
  test::DataSpec data;
  data.prefix_pool = 1000;  // ties in the first word, settled by bytes 8..9 or the index
  const auto records = test::make_records(layout, count, 17, data);
  const auto want = test::reference_order(layout, records.data(), count);
  for (const uint64_t cap : {uint64_t{1} << 30, uint64_t{24} << 20}) {
    GpuBackend backend(layout, test::options_with_cap(cap), test::test_pool(8));
    EXPECT_TRUE(test::sort_order_matches(backend, want, records.data(), count)) << "cap " << cap;
    const BackendTimings t = backend.timings();
    EXPECT_EQ(t.chunks, 1u);
    EXPECT_EQ(t.pieces, (count + backend.group_records() - 1) / backend.group_records());
    EXPECT_GT(t.sort_s, 0);
    EXPECT_GT(t.copy_in_s, 0);
  }
}

}  // namespace
}  // namespace gsort::gpu
