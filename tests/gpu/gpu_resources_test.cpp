// The CUDA error macro, the probe, pinned host memory and the device plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "src/cuda/check.h"
#include "src/cuda/host_registration.h"
#include "src/cuda/registered_copies.h"
#include "src/cuda/resources.h"
#include "src/chunk_sort/gpu/device_plan.h"
#include "src/chunk_sort/gpu/gpu_backend.h"
#include "tests/gpu/gpu_test_support.h"

namespace gsort::gpu {
namespace {

using test::field;

TEST(CudaCheck, ThrowsWithCallSiteAndErrorName) {
  try {
    GSORT_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "no exception";
  } catch (const CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
    EXPECT_NE(what.find("gpu_resources_test.cpp:"), std::string::npos) << what;
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
  }
  EXPECT_THROW(GSORT_CUDA_CHECK(cudaErrorMemoryAllocation), DeviceOutOfMemory);
  EXPECT_NO_THROW(GSORT_CUDA_CHECK(cudaSuccess));
}

TEST(GpuProbe, NeverCrashesAndSaysWhy) {
  std::string why;
  EXPECT_FALSE(gpu_usable(4096, &why));
  EXPECT_FALSE(why.empty());
  why = "unchanged?";
  if (gpu_usable(0, &why)) {
    EXPECT_TRUE(why.empty());
  } else {
    EXPECT_FALSE(why.empty());
    EXPECT_THROW(make_gpu_backend(KeyLayout::whole_record(8, false), GpuOptions{}, test::test_pool()), Error);
  }
}

TEST(GpuResources, AllocateHostGivesPinnedMemory) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:4")}, 4, false);
  auto backend = make_gpu_backend(layout, test::options_with_cap(16 << 20), test::test_pool());
  HostBuffer buffer = backend->allocate_host(size_t{3} << 20);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer.size(), size_t{3} << 20);
  cudaPointerAttributes attributes{};
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, buffer.data()), cudaSuccess);
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
  std::memset(buffer.data(), 0x3C, buffer.size());
  EXPECT_EQ(buffer.data()[buffer.size() - 1], 0x3C);
  EXPECT_NE(backend->describe().find("gpu 0"), std::string::npos) << backend->describe();
}

// The plan's regions lie inside the arena and do not overlap.
TEST(HostRegistration, PinsUntilItGoesAndMovesWithItsOwner) {
  GSORT_REQUIRE_GPU();
  HostBuffer memory = HostBuffer::allocate_pageable(size_t{2} << 20);
  EXPECT_FALSE(is_pinned(memory.data()));
  {
    cuda::HostRegistration first(0, memory.data(), memory.size(), cudaHostRegisterPortable);
    ASSERT_TRUE(first);
    EXPECT_TRUE(is_pinned(memory.data()));
    // A second registration of the same pages fails quietly, leaving no error behind.
    cuda::HostRegistration again(0, memory.data(), memory.size(), cudaHostRegisterPortable);
    EXPECT_FALSE(again);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    cuda::HostRegistration moved(std::move(first));
    EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_TRUE(moved);
    EXPECT_TRUE(is_pinned(memory.data()));
  }
  EXPECT_FALSE(is_pinned(memory.data()));
  cuda::HostRegistration reset(0, memory.data(), memory.size(), cudaHostRegisterPortable);
  ASSERT_TRUE(reset);
  reset.reset();
  EXPECT_FALSE(reset);
  EXPECT_FALSE(is_pinned(memory.data()));
  EXPECT_FALSE(cuda::HostRegistration(0, memory.data(), 0, cudaHostRegisterPortable));
}

// A copy in pieces registers each piece (none shares a page with the one
// before, which the driver would refuse), copies every byte, and unpins
// on release.
TEST(RegisteredCopies, CopiesEveryByteAPieceAtATimeEachPieceRegistered) {
  GSORT_REQUIRE_GPU();
  const size_t bytes = cuda::RegisteredCopies::kPieceBytes * 2 + (size_t{3} << 20);
  HostBuffer host = HostBuffer::allocate_pageable(bytes);
  for (size_t i = 0; i < bytes; ++i) host.data()[i] = static_cast<uint8_t>(i * 131 + (i >> 12));
  const size_t from = 13, length = bytes - 13 - 29;  // bounds off the pages
  cuda::DeviceBuffer device(length);
  cuda::Stream stream;
  cuda::RegisteredCopies pins(0, stream);
  pins.copy(host.data() + from, length, device.data(), cudaHostRegisterReadOnly);
  EXPECT_EQ(pins.pieces(), 3u);
  EXPECT_EQ(pins.registered(), pins.pieces());
  EXPECT_TRUE(is_pinned(host.data() + from));
  EXPECT_TRUE(is_pinned(host.data() + from + length - 1));
  stream.synchronize();
  pins.release();
  EXPECT_EQ(pins.pieces(), 0u);
  EXPECT_FALSE(is_pinned(host.data() + from));
  std::vector<uint8_t> back(length);
  GSORT_CUDA_CHECK(cudaMemcpy(back.data(), device.data(), length, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(std::memcmp(back.data(), host.data() + from, length) == 0) << "the copy differs";
}

// Large buffers are registered pageable memory; pin_host pins the caller's
// memory while its HostPin lives.
TEST(GpuResources, LargeHostBuffersAndPinHostAreRegistered) {
  GSORT_REQUIRE_GPU();
  const KeyLayout layout({field("0:4")}, 4, false);
  auto backend = make_gpu_backend(layout, test::options_with_cap(16 << 20), test::test_pool());
  HostBuffer large = backend->allocate_host(size_t{64} << 20);
  EXPECT_TRUE(is_pinned(large.data()));
  HostBuffer mine = HostBuffer::allocate_pageable(size_t{4} << 20);
  std::unique_ptr<HostPin> pin = backend->pin_host(mine.data(), mine.size());
  ASSERT_NE(pin, nullptr);
  EXPECT_TRUE(is_pinned(mine.data()));
  pin.reset();
  EXPECT_FALSE(is_pinned(mine.data()));
}

TEST(DevicePlan, RegionsFitAndDoNotOverlap) {
  GSORT_REQUIRE_GPU();
  const std::vector<KeyLayout> layouts = {
      KeyLayout({field("0:10")}, 100, false), KeyLayout({field("0:u16")}, 2, false),
      KeyLayout::whole_record(100, false), KeyLayout({field("0:f64"), field("8:3")}, 4096, false)};
  for (const KeyLayout& layout : layouts) {
    const kernels::KeyFormat format = make_key_format(layout);
    for (const size_t arena : {size_t{1} << 20, size_t{5} << 20, size_t{300} << 20}) {
      const DevicePlan p = plan_device_memory(format, layout.record_size(), arena);
      if (p.streaming.capacity == 0) continue;
      EXPECT_LE(p.bytes, arena);
      EXPECT_EQ(p.streaming.capacity % p.piece_records, 0u);
      const uint64_t slot = p.piece_records * layout.record_size();
      const auto group_regions = [&](const GroupArrays& g) {
        const uint64_t n = g.capacity;
        return std::vector<std::pair<size_t, size_t>>{
            {g.columns, g.columns + (format.words - 1) * n * 8},
            {g.keys_a, g.keys_a + n * format.sort_key_bytes()},
            {g.keys_b, g.keys_b + n * format.sort_key_bytes()},
            {g.values_a, g.values_a + n * 4},
            {g.values_b, g.values_b + n * 4},
            {g.temp, g.temp + g.temp_bytes}};
      };
      auto regions = group_regions(p.streaming);
      for (size_t s : p.staging) regions.push_back({s, s + slot});
      std::sort(regions.begin(), regions.end());
      for (size_t i = 0; i < regions.size(); ++i) {
        EXPECT_LE(regions[i].second, p.bytes);
        if (i > 0) {
          EXPECT_LE(regions[i - 1].second, regions[i].first) << "overlap at region " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace gsort::gpu
