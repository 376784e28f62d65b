// begin_chunk: sorting while the reader fills the chunk.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

// Feeds records_ready in random steps, copying the records into the pinned
// chunk buffer as a reader would, then finishes.
void check_session(GpuBackend& backend, const KeyLayout& layout, uint64_t count, uint64_t seed) {
  const uint32_t size = layout.record_size();
  const auto records = test::make_records(layout, count, seed);
  HostBuffer buffer = backend.allocate_host(count * size);
  auto session = backend.begin_chunk(buffer.data());
  std::mt19937_64 rng(seed);
  uint64_t ready = 0;
  while (ready < count) {
    const uint64_t step = std::min<uint64_t>(count - ready, 1 + rng() % (count / 7 + 1));
    std::memcpy(buffer.data() + ready * size, records.data() + ready * size, step * size);
    ready += step;
    session->records_ready(ready);
  }
  std::vector<uint32_t> got(count);
  session->finish(got.data());
  EXPECT_TRUE(test::same_order(test::reference_order(layout, records.data(), count), got.data()))
      << count << " records";
}

TEST(GpuSession, SortsWhileTheChunkFills) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:10")}, 100, false);
  GpuBackend roomy(layout, test::options_with_cap(uint64_t{256} << 20), test::test_pool());
  check_session(roomy, layout, 200000, 1);
  GpuBackend tight(layout, test::options_with_cap(1 << 20), test::test_pool());  // many groups, merged
  check_session(tight, layout, 3 * tight.group_records() + 17, 2);
  check_session(tight, layout, 1, 3);
  EXPECT_EQ(tight.timings().chunks, 2u);
}

TEST(GpuSession, WaitsForTheDeviceWhenAnotherChunkHoldsIt) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("2:u32be")}, 9, false);
  GpuBackend backend(layout, test::options_with_cap(4 << 20), test::test_pool());
  const uint64_t count = 4 * backend.piece_records() + 3;
  const auto a = test::make_records(layout, count, 4);
  const auto b = test::make_records(layout, count, 5);
  auto first = backend.begin_chunk(a.data());
  first->records_ready(count);   // takes the device
  auto second = backend.begin_chunk(b.data());
  second->records_ready(count);  // finds it busy and waits for finish
  std::vector<uint32_t> got_a(count), got_b(count);
  first->finish(got_a.data());
  second->finish(got_b.data());
  EXPECT_TRUE(test::same_order(test::reference_order(layout, a.data(), count), got_a.data()));
  EXPECT_TRUE(test::same_order(test::reference_order(layout, b.data(), count), got_b.data()));
}

TEST(GpuSession, AbandonedSessionReleasesTheDevice) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:8")}, 16, false);
  GpuBackend backend(layout, test::options_with_cap(4 << 20), test::test_pool());
  const uint64_t count = 3 * backend.piece_records();
  const auto records = test::make_records(layout, count, 6);
  {
    auto session = backend.begin_chunk(records.data());
    session->records_ready(count);
  }  // destroyed without finish
  EXPECT_TRUE(test::sort_order_matches(backend, layout, records.data(), count));
}

}  // namespace
}  // namespace gsort::gpu
