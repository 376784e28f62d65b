// radix_sort_pairs (u32 and u64 keys) against std::stable_sort.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/device/radix_sort.cuh"
#include "kernels/device/sorts.h"
#include "tests/gpu/kernel_test_util.cuh"

namespace {

using namespace gsort::test;

template <typename K>
constexpr int kBits = int(sizeof(K) * 8);

// Sorts on the device; `offset` elements of slack before the data make the
// arrays start at an odd address (no 16-byte loads).
template <typename K>
void device_radix_sort(std::vector<K>* keys, std::vector<uint32_t>* vals, int begin_bit, int end_bit,
                       cudaStream_t stream = nullptr, uint64_t offset = 0) {
  const uint64_t n = keys->size();
  DevBuf<K> dk(n + offset);
  DevBuf<uint32_t> dv(n + offset);
  if (n > 0) {
    GSORT_CUDA_CHECK(cudaMemcpy(dk.get() + offset, keys->data(), n * sizeof(K), cudaMemcpyHostToDevice));
    GSORT_CUDA_CHECK(cudaMemcpy(dv.get() + offset, vals->data(), n * 4, cudaMemcpyHostToDevice));
  }
  DeviceBuffer temp(gsort::kernels::radix_sort_pairs_temp_bytes(n, kBits<K>));
  gsort::kernels::radix_sort_pairs(dk.get() + offset, dv.get() + offset, n, begin_bit, end_bit, temp.data(),
                              temp.size(), stream);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  if (n > 0) {
    GSORT_CUDA_CHECK(cudaMemcpy(keys->data(), dk.get() + offset, n * sizeof(K), cudaMemcpyDeviceToHost));
    GSORT_CUDA_CHECK(cudaMemcpy(vals->data(), dv.get() + offset, n * 4, cudaMemcpyDeviceToHost));
  }
}

template <typename K>
void check_radix(uint64_t n, Distribution dist, uint64_t seed, int begin_bit = 0, int end_bit = kBits<K>,
                 uint64_t offset = 0) {
  if (n > max_test_n()) return;
  SCOPED_TRACE(testing::Message() << "n=" << n << " dist=" << distribution_name(dist) << " bits=[" << begin_bit
                                  << "," << end_bit << ") key_bits=" << kBits<K> << " offset=" << offset);
  const std::vector<K> in = make_keys<K>(n, dist, seed);
  std::vector<K> keys = in;
  std::vector<uint32_t> vals = iota_values(n);
  device_radix_sort(&keys, &vals, begin_bit, end_bit, nullptr, offset);
  ASSERT_TRUE(is_stable_sort_of(in, keys, vals, begin_bit, end_bit));
  if (n <= 200000) {
    std::vector<K> ref_keys;
    std::vector<uint32_t> ref_vals;
    reference_sort_keys(in, &ref_keys, &ref_vals, begin_bit, end_bit);
    ASSERT_EQ(keys, ref_keys);
    ASSERT_EQ(vals, ref_vals);
  }
}

// Warp 32; u32 keys: block 256, tile 6144; u64 keys: block 384, tile 4608.
// Up to one tile, a single block sorts; beyond, the three-kernel passes.
const uint64_t kSizes[] = {0,    1,    2,    3,    31,   32,    33,    255,   256,    257,    383,
                           384,  385,  4095, 4096, 4097, 4607,  4608,  4609,  6143,   6144,   6145,
                           9217, 12289, 100003, 3000017};

TEST(KernelRadixSort, U32AllDistributionsAndSizes) {
  GSORT_REQUIRE_GPU();
  for (Distribution d : kAllDistributions)
    for (uint64_t n : kSizes) check_radix<uint32_t>(n, d, 11);
}

TEST(KernelRadixSort, U64AllDistributionsAndSizes) {
  GSORT_REQUIRE_GPU();
  for (Distribution d : kAllDistributions)
    for (uint64_t n : kSizes) check_radix<uint64_t>(n, d, 12);
}

TEST(KernelRadixSort, U32BitWindows) {
  GSORT_REQUIRE_GPU();
  const int windows[][2] = {{0, 1}, {4, 12}, {13, 13}, {31, 32}, {3, 32}, {0, 17}, {8, 24}, {0, 0}, {32, 32}};
  for (auto& w : windows)
    for (Distribution d : {Distribution::kRandom, Distribution::kLowEntropy, Distribution::kFewDistinct})
      for (uint64_t n : {uint64_t(1000), uint64_t(6145), uint64_t(100003)}) check_radix<uint32_t>(n, d, 13, w[0], w[1]);
}

TEST(KernelRadixSort, U64BitWindows) {
  GSORT_REQUIRE_GPU();
  const int windows[][2] = {{0, 8}, {20, 60}, {63, 64}, {56, 64}, {1, 63}, {32, 64}, {0, 33}, {64, 64}};
  for (auto& w : windows)
    for (Distribution d : {Distribution::kRandom, Distribution::kLowEntropy})
      for (uint64_t n : {uint64_t(1000), uint64_t(6145), uint64_t(100003)}) check_radix<uint64_t>(n, d, 14, w[0], w[1]);
}

// Internal options: 64-bit table entries (used from n >= 2^32 on) and
// chunks of several tiles per block, on sizes that fit a test.
template <typename P, typename K>
void check_radix_options(uint64_t n, Distribution dist, const gsort::kernels::RadixOptions& opt) {
  SCOPED_TRACE(testing::Message() << "n=" << n << " dist=" << distribution_name(dist) << " key_bits=" << kBits<K>
                                  << " tiles_per_chunk=" << opt.tiles_per_chunk << " wide=" << opt.wide_offsets);
  if (n > max_test_n()) return;
  const std::vector<K> in = make_keys<K>(n, dist, 40 + n);
  DevBuf<K> dk(in);
  DevBuf<uint32_t> dv(iota_values(n));
  DeviceBuffer temp(gsort::kernels::radix_sort_temp_bytes<P, K>(n, opt));
  gsort::kernels::radix_sort_pairs<P, K>(dk.get(), dv.get(), n, 0, kBits<K>, temp.data(), temp.size(), nullptr, opt);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(is_stable_sort_of(in, dk.download(), dv.download()));
}

TEST(KernelRadixSort, WideOffsetsAndMultiTileChunks) {
  GSORT_REQUIRE_GPU();
  using gsort::kernels::RadixOptions;
  for (uint64_t n : {uint64_t(6145), uint64_t(100003), uint64_t(3000017)})
    for (Distribution d : {Distribution::kRandom, Distribution::kFewDistinct}) {
      check_radix_options<gsort::kernels::RadixPolicyU32, uint32_t>(n, d, RadixOptions{1, true});
      check_radix_options<gsort::kernels::RadixPolicyU64, uint64_t>(n, d, RadixOptions{1, true});
      check_radix_options<gsort::kernels::RadixPolicyU32, uint32_t>(n, d, RadixOptions{3, false});
      check_radix_options<gsort::kernels::RadixPolicyU64, uint64_t>(n, d, RadixOptions{5, true});
    }
}

TEST(KernelRadixSort, UnalignedArrays) {
  GSORT_REQUIRE_GPU();
  for (uint64_t n : {uint64_t(5), uint64_t(4609), uint64_t(6145), uint64_t(100003)}) {
    check_radix<uint32_t>(n, Distribution::kRandom, 15, 0, 32, 1);
    check_radix<uint64_t>(n, Distribution::kLowEntropy, 16, 0, 64, 3);
  }
}

TEST(KernelRadixSort, OnAStream) {
  GSORT_REQUIRE_GPU();
  const gsort::cuda::Stream stream;
  const std::vector<uint64_t> in = make_keys<uint64_t>(300001, Distribution::kRandom, 17);
  std::vector<uint64_t> keys = in;
  std::vector<uint32_t> vals = iota_values(in.size());
  device_radix_sort(&keys, &vals, 0, 64, stream.get());
  EXPECT_TRUE(is_stable_sort_of(in, keys, vals));
}

// Keys arrive normalised: sign bit set -> invert all bits, else set the sign bit.
// Expected order: -NaN, -inf, negatives, -0, +0, positives, +inf, +NaN.
TEST(KernelRadixSort, NormalisedDoublesWithNanAndSignedZeros) {
  GSORT_REQUIRE_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> ordered = {-nan, -inf, -1e300, -2.5, -1.0, -4.9e-324, -0.0,
                                       0.0,  4.9e-324, 1e-300, 1.0, 3.5, 42.0, inf, nan};
  // Input: the classes shuffled, many copies each.
  const ClassedKeys input = shuffled_classes(ordered, 4000, 20);
  const std::vector<uint64_t>& in = input.keys;
  const std::vector<int>& cls = input.classes;
  std::vector<uint64_t> keys = in;
  std::vector<uint32_t> vals = iota_values(in.size());
  device_radix_sort(&keys, &vals, 0, 64);
  ASSERT_TRUE(is_stable_sort_of(in, keys, vals));
  for (size_t i = 1; i < vals.size(); ++i)
    ASSERT_LE(cls[vals[i - 1]], cls[vals[i]]) << "at " << i << ": " << ordered[cls[vals[i - 1]]]
                                              << " before " << ordered[cls[vals[i]]];
}

TEST(KernelRadixSort, RejectsBadArguments) {
  GSORT_REQUIRE_GPU();
  DevBuf<uint32_t> k(10), v(10);
  EXPECT_THROW(gsort::kernels::radix_sort_pairs(k.get(), v.get(), 10, 0, 33, nullptr, 0, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gsort::kernels::radix_sort_pairs(k.get(), v.get(), 10, 5, 4, nullptr, 0, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gsort::kernels::radix_sort_pairs(k.get(), v.get(), 10, 0, 32, nullptr, 0, nullptr),
               std::invalid_argument);  // needs temp
  EXPECT_THROW(gsort::kernels::radix_sort_pairs_temp_bytes(10, 16), std::invalid_argument);
}

// Generated, sorted and checked on the device.
template <typename K>
void check_radix_large(uint64_t n, uint64_t seed, int shift) {
  SCOPED_TRACE(testing::Message() << "n=" << n << " key_bits=" << kBits<K> << " shift=" << shift);
  DevBuf<K> keys(n);
  DevBuf<uint32_t> vals(n);
  generate_on_device<K>(keys.get(), vals.get(), n, seed, shift);
  DeviceBuffer temp(gsort::kernels::radix_sort_pairs_temp_bytes(n, kBits<K>));
  gsort::kernels::radix_sort_pairs(keys.get(), vals.get(), n, 0, kBits<K>, temp.data(), temp.size(), nullptr);
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(check_on_device<K>(keys.get(), vals.get(), n, seed, shift), 0ull);
}

// 2^28 pairs with 64-bit keys: 3 GB of data and 3 GB of temp.
TEST(KernelRadixSort, LargeU64Pairs) {
  GSORT_REQUIRE_GPU();
  GSORT_SKIP_ABOVE(uint64_t(1) << 28);
  check_radix_large<uint64_t>(uint64_t(1) << 28, 18, 0);
  check_radix_large<uint64_t>((uint64_t(1) << 26) + 77, 19, 40);  // 24-bit keys: many equal
}

// More than 2^31 pairs (35 GB on the device with temp and checks): offsets
// past the 32-bit signed range. Skipped where device memory is short.
TEST(KernelRadixSort, HugeU32PairsPast2p31) {
  GSORT_REQUIRE_GPU();
  const uint64_t n = (uint64_t(1) << 31) + 4099;
  GSORT_SKIP_ABOVE(n);
  size_t free_b = 0, total_b = 0;
  GSORT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (free_b < n * 8 * 2 + (uint64_t(2) << 30)) GTEST_SKIP() << "needs ~37 GB of free device memory";
  check_radix_large<uint32_t>(n, 20, 48);  // 16-bit keys: long runs of equal keys
}

}  // namespace
