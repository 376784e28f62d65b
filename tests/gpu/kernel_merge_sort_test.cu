// merge_sort_pairs against std::stable_sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/device/sorts.h"
#include "tests/gpu/kernel_test_util.cuh"

namespace {

using namespace gsort::test;

void device_merge_sort(std::vector<uint64_t>* keys, std::vector<uint32_t>* vals) {
  const uint64_t n = keys->size();
  DevBuf<uint64_t> dk(*keys);
  DevBuf<uint32_t> dv(*vals);
  DeviceBuffer temp(gsort::kernels::merge_sort_pairs_temp_bytes(n));
  gsort::kernels::merge_sort_pairs(dk.get(), dv.get(), n, temp.data(), temp.size(), nullptr);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  *keys = dk.download();
  *vals = dv.download();
}

void check_merge_sort(uint64_t n, Distribution dist, uint64_t seed) {
  if (n > max_test_n()) return;
  SCOPED_TRACE(testing::Message() << "n=" << n << " dist=" << distribution_name(dist));
  const std::vector<uint64_t> in = make_keys<uint64_t>(n, dist, seed);
  std::vector<uint64_t> keys = in;
  std::vector<uint32_t> vals = iota_values(n);
  device_merge_sort(&keys, &vals);
  ASSERT_TRUE(is_stable_sort_of(in, keys, vals));
  if (n <= 200000) {
    std::vector<uint64_t> ref_keys;
    std::vector<uint32_t> ref_vals;
    reference_sort_keys(in, &ref_keys, &ref_vals);
    ASSERT_EQ(keys, ref_keys);
    ASSERT_EQ(vals, ref_vals);
  }
}

// Default policy: 5 items per thread, block 256, tile 1280 (sizes around
// other tiles too); 5000011 needs 12 merge passes.
const uint64_t kSizes[] = {0,    1,    2,    3,    4,    5,    6,    7,    8,    255,    256,     257,
                           1279, 1280, 1281, 1792, 2559, 2561, 3839, 3841, 5121, 11521, 100003, 1048579,
                           5000011};

TEST(KernelMergeSort, AllDistributionsAndSizes) {
  GSORT_REQUIRE_GPU();
  for (Distribution d : kAllDistributions)
    for (uint64_t n : kSizes) check_merge_sort(n, d, 21);
}

TEST(KernelMergeSort, NormalisedDoublesWithNanAndSignedZeros) {
  GSORT_REQUIRE_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> ordered = {-nan, -inf, -1e300, -2.5, -0.0, 0.0, 1e-300, 3.5, inf, nan};
  const ClassedKeys input = shuffled_classes(ordered, 9000, 22);
  const std::vector<uint64_t>& in = input.keys;
  const std::vector<int>& cls = input.classes;
  std::vector<uint64_t> keys = in;
  std::vector<uint32_t> vals = iota_values(in.size());
  device_merge_sort(&keys, &vals);
  ASSERT_TRUE(is_stable_sort_of(in, keys, vals));
  for (size_t i = 1; i < vals.size(); ++i) ASSERT_LE(cls[vals[i - 1]], cls[vals[i]]) << i;
}

void check_merge_sort_large(uint64_t n, uint64_t seed, int shift) {
  SCOPED_TRACE(testing::Message() << "n=" << n << " shift=" << shift);
  DevBuf<uint64_t> keys(n);
  DevBuf<uint32_t> vals(n);
  generate_on_device<uint64_t>(keys.get(), vals.get(), n, seed, shift);
  DeviceBuffer temp(gsort::kernels::merge_sort_pairs_temp_bytes(n));
  gsort::kernels::merge_sort_pairs(keys.get(), vals.get(), n, temp.data(), temp.size(), nullptr);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(check_on_device<uint64_t>(keys.get(), vals.get(), n, seed, shift), 0ull);
}

// Generated, sorted and checked on the device.
TEST(KernelMergeSort, LargeRandom) {
  GSORT_REQUIRE_GPU();
  GSORT_SKIP_ABOVE(uint64_t(1) << 27);
  check_merge_sort_large(uint64_t(1) << 27, 23, 0);
  check_merge_sort_large((uint64_t(1) << 24) + 5, 24, 44);  // 20-bit keys: many equal
}

TEST(KernelMergeSort, TempTooSmallThrows) {
  GSORT_REQUIRE_GPU();
  DevBuf<uint64_t> k(100);
  DevBuf<uint32_t> v(100);
  EXPECT_THROW(gsort::kernels::merge_sort_pairs(k.get(), v.get(), 100, nullptr, 0, nullptr),
               std::invalid_argument);
}

}  // namespace
