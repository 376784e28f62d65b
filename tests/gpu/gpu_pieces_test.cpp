// Tiny memory caps: chunks of many pieces and many groups, merged on the
// host; counts around the piece and group boundaries.
#include <gtest/gtest.h>

#include <set>

#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

struct Case {
  const char* name;
  std::vector<std::string> keys;  // empty: the whole record
  uint32_t record_size;
  uint64_t cap;
};

void check_boundaries(const Case& c) {
  std::vector<KeyField> fields;
  for (const std::string& k : c.keys) fields.push_back(field(k));
  const KeyLayout layout = fields.empty() ? KeyLayout::whole_record(c.record_size, false)
                                          : KeyLayout(fields, c.record_size, false);
  GpuBackend backend(layout, test::options_with_cap(c.cap), test::test_pool(4));
  const uint64_t piece = backend.piece_records();
  const uint64_t group = backend.group_records();
  ASSERT_GT(piece, 0u);
  ASSERT_GE(group, piece);
  ASSERT_EQ(group % piece, 0u);
  const std::set<uint64_t> counts = {piece - 1, piece, piece + 1, group - 1, group, group + 1,
                                     2 * group + 1, 3 * group + piece + 1};
  const uint64_t max_bytes = uint64_t{160} << 20;
  const uint64_t largest = std::min(*counts.rbegin(), max_bytes / c.record_size);
  test::DataSpec data;
  data.prefix_pool = 7;
  data.distribution = gsort_test::Distribution::kLowEntropy;
  const auto records = test::make_records(layout, largest, c.record_size + c.cap, data);
  for (const uint64_t count : counts) {
    if (count == 0 || count > largest) continue;
    EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), count))
        << c.name << ": " << count << " records, pieces of " << piece << ", groups of " << group;
  }
}

TEST(GpuPieces, GensortKeyAtSmallCaps) {
  GSORT_REQUIRE_GPU();
  for (const uint64_t mib : {1, 2, 4}) check_boundaries({"gensort", {"0:10"}, 100, mib << 20});
}

TEST(GpuPieces, NarrowKeysMergeWholeKeys) {
  GSORT_REQUIRE_GPU();
  check_boundaries({"u32", {"4:u32"}, 8, 1 << 20});
  check_boundaries({"i16 desc", {"1:i16:desc"}, 3, 1 << 20});
  check_boundaries({"f64be", {"0:f64be"}, 9, 2 << 20});
  check_boundaries({"1 byte", {}, 1, 1 << 20});
}

TEST(GpuPieces, WideKeysAndLargeRecords) {
  GSORT_REQUIRE_GPU();
  check_boundaries({"whole 100-byte record", {}, 100, 2 << 20});
  check_boundaries({"multi-field", {"0:i32", "7:12:desc"}, 23, 1 << 20});
  check_boundaries({"4096-byte records", {"100:16"}, 4096, 1 << 20});
}

TEST(GpuPieces, CapTooSmallThrowsDeviceOutOfMemory) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  EXPECT_THROW(GpuBackend(layout, test::options_with_cap(4096), test::test_pool()), DeviceOutOfMemory);
  EXPECT_THROW(make_gpu_backend(layout, test::options_with_cap(16 << 10), test::test_pool()), DeviceOutOfMemory);
  const KeyLayout wide = KeyLayout::whole_record(4096, false);  // 4 KiB keys
  EXPECT_THROW(GpuBackend(wide, test::options_with_cap(1 << 20), test::test_pool()), DeviceOutOfMemory);
}

}  // namespace
}  // namespace gsort::gpu
