// Device helpers of the GPU kernel tests (tests/gpu/kernel_*): device
// buffers, GPU presence, and generation and checking on the device for sizes
// too large for host copies. Host data and the reference come from
// tests/support/ (record_gen.h, reference_keys.h).
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "src/cuda/check.h"
#include "src/cuda/resources.h"
#include "tests/gpu/require_gpu.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_keys.h"

namespace gsort::test {

using namespace gsort_test;  // the shared generator and reference

// Largest array size the tests use: GSORT_TEST_MAX_N in the environment
// (for runs under compute-sanitizer), else no limit.
inline uint64_t max_test_n() {
  static const uint64_t limit = [] {
    const char* s = std::getenv("GSORT_TEST_MAX_N");
    return s ? std::strtoull(s, nullptr, 10) : ~uint64_t(0);
  }();
  return limit;
}

#define GSORT_SKIP_ABOVE(n)                                               \
  do {                                                                    \
    if (uint64_t(n) > ::gsort::test::max_test_n())                        \
      GTEST_SKIP() << "n=" << (n) << " above GSORT_TEST_MAX_N";           \
  } while (0)

// Scratch for a kernel: DeviceBuffer(bytes); data() is null for 0 bytes.
using cuda::DeviceBuffer;

// A typed array in device memory, owned for the scope of a test.
template <typename T>
class DevBuf {
 public:
  explicit DevBuf(uint64_t count) : memory_(count * sizeof(T)), count_(count) {}
  explicit DevBuf(const std::vector<T>& host) : DevBuf(host.size()) { upload(host); }
  T* get() const { return reinterpret_cast<T*>(memory_.data()); }
  uint64_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  void upload(const std::vector<T>& host) {
    if (count_ > 0) GSORT_CUDA_CHECK(cudaMemcpy(get(), host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) GSORT_CUDA_CHECK(cudaMemcpy(host.data(), get(), bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  cuda::DeviceBuffer memory_;
  uint64_t count_ = 0;
};

// ---- Large sizes: generated and checked on the device (no host copies) ----

__host__ __device__ inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Input key of index i: a hash, shifted right by `shift` to make duplicates.
template <typename K>
__host__ __device__ inline K generated_key(uint64_t i, uint64_t seed, int shift) {
  return K(mix64(i * 0x9e3779b97f4a7c15ull + seed) >> shift);
}

template <typename K>
__global__ void generate_kernel(K* keys, uint32_t* vals, uint64_t n, uint64_t seed, int shift) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = generated_key<K>(i, seed, shift);
    vals[i] = uint32_t(i);
  }
}

// Counts violations of: vals is a permutation of 0..n-1 (a bitmap catches
// repeats), keys[i] is the generated key of vals[i], keys never decrease,
// and equal keys keep increasing vals.
template <typename K>
__global__ void check_kernel(const K* keys, const uint32_t* vals, uint64_t n, uint64_t seed, int shift,
                                 uint32_t* bitmap, unsigned long long* errors) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint32_t v = vals[i];
    bool bad = v >= n;
    if (!bad) {
      const uint32_t bit = 1u << (v & 31);
      bad = (atomicOr(&bitmap[v >> 5], bit) & bit) != 0;
      bad = bad || keys[i] != generated_key<K>(v, seed, shift);
    }
    if (i + 1 < n) {
      const K a = keys[i], b = keys[i + 1];
      bad = bad || b < a || (a == b && vals[i + 1] < v);
    }
    if (bad) atomicAdd(errors, 1ull);
  }
}

// Fills keys/vals on the device with generated keys and 0..n-1.
template <typename K>
void generate_on_device(K* keys, uint32_t* vals, uint64_t n, uint64_t seed, int shift) {
  generate_kernel<K><<<4096, 256>>>(keys, vals, n, seed, shift);
  GSORT_CUDA_CHECK(cudaGetLastError());
}

// Number of violations (0: the arrays are the stable sort of the generated input).
template <typename K>
unsigned long long check_on_device(const K* keys, const uint32_t* vals, uint64_t n, uint64_t seed, int shift) {
  DevBuf<uint32_t> bitmap((n + 31) / 32 + 1);
  DevBuf<unsigned long long> errors(1);
  GSORT_CUDA_CHECK(cudaMemset(bitmap.get(), 0, bitmap.bytes()));
  GSORT_CUDA_CHECK(cudaMemset(errors.get(), 0, errors.bytes()));
  check_kernel<K><<<4096, 256>>>(keys, vals, n, seed, shift, bitmap.get(), errors.get());
  GSORT_CUDA_CHECK(cudaGetLastError());
  GSORT_CUDA_CHECK(cudaDeviceSynchronize());
  return errors.download()[0];
}

// f64 bits mapped so that unsigned order is numeric order (NaNs with the sign
// bit clear after +inf, with it set before -inf; -0 just before +0).
inline uint64_t normalise_f64(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return (b >> 63) ? ~b : (b | (uint64_t(1) << 63));
}

// Keys drawn from classes of doubles given in ascending order, many copies
// of each in random order: the normalised keys and each key's class.
struct ClassedKeys {
  std::vector<uint64_t> keys;
  std::vector<int> classes;
};

inline ClassedKeys shuffled_classes(const std::vector<double>& ordered, int count, uint64_t seed) {
  ClassedKeys out;
  Rng rng(seed);
  for (int rep = 0; rep < count; ++rep) {
    const int c = int(rng.next() % ordered.size());
    out.keys.push_back(normalise_f64(ordered[c]));
    out.classes.push_back(c);
  }
  return out;
}

}  // namespace gsort::test
