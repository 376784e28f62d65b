// rank_sort_pairs against std::stable_sort.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/device/sorts.h"
#include "tests/gpu/kernel_test_util.cuh"

namespace {

using namespace gsort::test;

void check_rank_sort(uint64_t n, Distribution dist, uint64_t seed) {
  if (n > max_test_n()) return;
  SCOPED_TRACE(testing::Message() << "n=" << n << " dist=" << distribution_name(dist));
  const std::vector<uint64_t> in = make_keys<uint64_t>(n, dist, seed);
  DevBuf<uint64_t> dk(in);
  DevBuf<uint32_t> dv(iota_values(n));
  DeviceBuffer temp(gsort::kernels::rank_sort_pairs_temp_bytes(n));
  gsort::kernels::rank_sort_pairs(dk.get(), dv.get(), n, temp.data(), temp.size(), nullptr);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  const auto keys = dk.download();
  const auto vals = dv.download();
  ASSERT_TRUE(is_stable_sort_of(in, keys, vals));
  std::vector<uint64_t> ref_keys;
  std::vector<uint32_t> ref_vals;
  reference_sort_keys(in, &ref_keys, &ref_vals);
  ASSERT_EQ(keys, ref_keys);
  ASSERT_EQ(vals, ref_vals);
}

// One block (1024 threads) sorts up to 512; the grid path takes chunks of 256.
const uint64_t kSizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 4097, 20011};

TEST(KernelRankSort, AllDistributionsAndSizes) {
  GSORT_REQUIRE_GPU();
  for (Distribution d : kAllDistributions)
    for (uint64_t n : kSizes) check_rank_sort(n, d, 31);
}

TEST(KernelRankSort, NoTempBelowBlockMax) {
  EXPECT_EQ(gsort::kernels::rank_sort_pairs_temp_bytes(gsort::kernels::rank_sort_block_max()), 0u);
  EXPECT_GT(gsort::kernels::rank_sort_pairs_temp_bytes(gsort::kernels::rank_sort_block_max() + 1), 0u);
}

}  // namespace
