// GpuBackend::sort_records through both gather paths.
#include <gtest/gtest.h>

#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

void check_records(GpuBackend& backend, const KeyLayout& layout, const std::vector<uint8_t>& records, uint64_t count,
                   const std::string& what) {
  const uint32_t size = layout.record_size();
  const auto want = test::apply_order(test::reference_order(layout, records.data(), count), records.data(), size);
  std::vector<uint8_t> got(count * size + 1, 0xA5);
  backend.sort_records(records.data(), count, got.data());
  EXPECT_EQ(got[count * size], 0xA5) << what << ": wrote past the end";
  EXPECT_TRUE(test::same_bytes(want, got.data(), size)) << what;
}

TEST(GpuSortRecords, EveryGatherPathAtManyRecordSizes) {
  GSORT_REQUIRE_GPU();
  struct Path {
    const char* name;
    GatherPath gather;
    double device_share;
  };
  const Path paths[] = {{"host", GatherPath::kHost, -1},      {"device", GatherPath::kDevice, -1},
                        {"balanced split", GatherPath::kAuto, -1}, {"split 0.37", GatherPath::kAuto, 0.37},
                        {"split 0", GatherPath::kAuto, 0}};
  for (const Path& path : paths) {
    for (const uint32_t size : {1u, 3u, 7u, 8u, 12u, 16u, 24u, 100u, 4096u}) {
      const std::string key = "0:" + std::to_string(std::min(size, 10u));
      const KeyLayout layout({field(key)}, size, false);
      GpuTuning tuning;
      tuning.gather = path.gather;
      tuning.device_share = path.device_share;
      GpuBackend backend(layout, test::options_with_cap(uint64_t{64} << 20), tuning);
      const uint64_t count = size >= 1024 ? 3000 : 20000;
      EXPECT_EQ(backend.gathers_on_device(count), path.gather != GatherPath::kHost);
      const auto records = test::make_records(layout, count, size);
      const std::string what = std::string(path.name) + " gather, " + std::to_string(size) + "-byte records";
      check_records(backend, layout, records, count, what);
      check_records(backend, layout, records, count - 1, what + ", again");  // after rebalancing
      EXPECT_GT(backend.timings().gather_s, 0) << what;
    }
  }
}

TEST(GpuSortRecords, ChunksLargerThanTheDeviceFallBackToTheHostGather) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuTuning tuning;
  tuning.gather = GatherPath::kDevice;
  GpuBackend backend(layout, test::options_with_cap(2 << 20), tuning);
  const uint64_t resident = backend.resident_records();
  ASSERT_GT(resident, 0u);
  const uint64_t count = 3 * backend.group_records() + 5;
  const auto records = test::make_records(layout, count, 9);
  for (const uint64_t n : {resident - 1, resident, resident + 1, count}) {
    EXPECT_EQ(backend.gathers_on_device(n), n <= resident);
    check_records(backend, layout, records, n, std::to_string(n) + " records");
  }
}

}  // namespace
}  // namespace gsort::gpu
