// An input of unknown size (a pipe: no --gpu-memory, no size hint) starts on
// a small device arena and grows it when a chunk needs more, instead of
// taking most of the GPU's memory up front (issue 12).
#include <gtest/gtest.h>

#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

TEST(GpuArenaGrowth, UnknownSizeStartsSmallAndGrowsWithTheChunks) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuBackend backend(layout, GpuOptions{}, test::test_pool());  // no cap, no hint
  const uint64_t first_arena = backend.peak_device_bytes();
  const uint64_t first_group = backend.group_records();
  EXPECT_LT(first_arena, uint64_t{4} << 30) << "took " << first_arena << " bytes for an input of unknown size";

  // A chunk that fits: no growth.
  const uint64_t small = 100000;
  ASSERT_LT(small, first_group);
  const auto small_records = test::make_records(layout, small, 3);
  EXPECT_TRUE(test::sort_order_matches(backend, layout, small_records.data(), small));
  EXPECT_EQ(backend.peak_device_bytes(), first_arena);

  // A chunk larger than one group of the first arena: the arena grows so
  // that it is sorted in one group, and the order is still right.
  const uint64_t large = first_group + first_group / 2 + 17;
  const auto large_records = test::make_records(layout, large, 4);
  // Tens of millions of records: checked in linear time, not against a reference sort.
  EXPECT_TRUE(test::sort_order_is_the_stable_order(backend, layout, large_records.data(), large));
  EXPECT_GE(backend.group_records(), large);
  EXPECT_GT(backend.peak_device_bytes(), first_arena);

  // Smaller chunks after it run on the grown arena.
  const uint64_t grown = backend.peak_device_bytes();
  EXPECT_TRUE(test::sort_order_matches(backend, layout, small_records.data(), small));
  EXPECT_EQ(backend.peak_device_bytes(), grown);
}

TEST(GpuArenaGrowth, AKnownSizeOrACapTakesItsArenaOnceAndKeepsIt) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuBackend capped(layout, test::options_with_cap(uint64_t{64} << 20), test::test_pool());
  const uint64_t group = capped.group_records();
  const uint64_t count = group * 2 + 5;  // merged on the host, as a cap demands
  const auto records = test::make_records(layout, count, 5);
  EXPECT_TRUE(test::sort_order_matches(capped, layout, records.data(), count));
  EXPECT_EQ(capped.group_records(), group);
  EXPECT_LE(capped.peak_device_bytes(), uint64_t{64} << 20);
}

}  // namespace
}  // namespace gsort::gpu
