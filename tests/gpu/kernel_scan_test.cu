// exclusive_scan_u32/u64 against a host loop.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/device/sorts.h"
#include "tests/gpu/kernel_test_util.cuh"

namespace {

using namespace gsort::test;

template <typename T>
void scan_on_device(const std::vector<T>& in, std::vector<T>* out, bool in_place) {
  DevBuf<T> d_in(in);
  DevBuf<T> d_out(in.size());
  DeviceBuffer temp(gsort::kernels::exclusive_scan_temp_bytes(in.size(), sizeof(T)));
  T* dst = in_place ? d_in.get() : d_out.get();
  if constexpr (sizeof(T) == 4)
    gsort::kernels::exclusive_scan_u32(d_in.get(), dst, in.size(), temp.data(), temp.size(), nullptr);
  else
    gsort::kernels::exclusive_scan_u64(d_in.get(), dst, in.size(), temp.data(), temp.size(), nullptr);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  *out = in_place ? d_in.download() : d_out.download();
}

template <typename T>
void check_scan(uint64_t n, uint64_t seed, bool in_place, bool small_values) {
  if (n > max_test_n()) return;
  Rng rng(seed);
  std::vector<T> in(n);
  for (auto& x : in) x = small_values ? T(rng.next() % 4) : T(rng.next());  // large values wrap
  std::vector<T> got;
  scan_on_device(in, &got, in_place);
  ASSERT_EQ(got.size(), n);
  T sum = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], sum) << "n=" << n << " at " << i;
    sum += in[i];
  }
}

// 1024 values per tile: tile +-1, two and three levels of tile sums.
const uint64_t kSizes[] = {0, 1, 2, 5, 1023, 1024, 1025, 2047, 2048, 2049, 100000,
                           1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 7, 3 * 1024 * 1024 + 1};

TEST(KernelScan, U32MatchesHost) {
  GSORT_REQUIRE_GPU();
  for (uint64_t n : kSizes) check_scan<uint32_t>(n, 1, false, false);
}

TEST(KernelScan, U64MatchesHost) {
  GSORT_REQUIRE_GPU();
  for (uint64_t n : kSizes) check_scan<uint64_t>(n, 2, false, false);
}

TEST(KernelScan, InPlace) {
  GSORT_REQUIRE_GPU();
  for (uint64_t n : {uint64_t(1), uint64_t(1025), uint64_t(1024 * 1024 + 7)}) {
    check_scan<uint32_t>(n, 3, true, true);
    check_scan<uint64_t>(n, 4, true, false);
  }
}

TEST(KernelScan, LargeU64) {
  GSORT_REQUIRE_GPU();
  GSORT_SKIP_ABOVE((uint64_t(1) << 26) + 3);
  check_scan<uint64_t>((uint64_t(1) << 26) + 3, 5, false, true);
}

TEST(KernelScan, TempTooSmallThrows) {
  GSORT_REQUIRE_GPU();
  const uint64_t n = 5000;
  ASSERT_GT(gsort::kernels::exclusive_scan_temp_bytes(n, 4), 0u);
  DevBuf<uint32_t> d(n);
  EXPECT_THROW(gsort::kernels::exclusive_scan_u32(d.get(), d.get(), n, nullptr, 0, nullptr),
               std::invalid_argument);
}

}  // namespace
