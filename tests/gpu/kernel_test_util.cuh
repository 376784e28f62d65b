// Shared helpers of the tests of gsort's GPU kernels (tests/gpu/kernel_*).
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

namespace gsort::test {

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

struct SplitMix64 {
  uint64_t s;
  explicit SplitMix64(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

enum class Dist { Random, Sorted, Reverse, AllEqual, FewDistinct, LowEntropy };

inline const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Random: return "Random";
    case Dist::Sorted: return "Sorted";
    case Dist::Reverse: return "Reverse";
    case Dist::AllEqual: return "AllEqual";
    case Dist::FewDistinct: return "FewDistinct";
    case Dist::LowEntropy: return "LowEntropy";
  }
  return "?";
}

inline const Dist kAllDists[] = {Dist::Random,   Dist::Sorted,      Dist::Reverse,
                                 Dist::AllEqual, Dist::FewDistinct, Dist::LowEntropy};

template <typename K>
std::vector<K> make_keys(uint64_t n, Dist dist, uint64_t seed) {
  SplitMix64 rng(seed * 0x100000001b3ull + n);
  std::vector<K> k(n);
  switch (dist) {
    case Dist::Random:
      for (auto& x : k) x = K(rng.next());
      break;
    case Dist::Sorted:
    case Dist::Reverse:
      for (auto& x : k) x = K(rng.next());
      std::sort(k.begin(), k.end());
      if (dist == Dist::Reverse) std::reverse(k.begin(), k.end());
      break;
    case Dist::AllEqual: {
      const K c = K(rng.next());
      std::fill(k.begin(), k.end(), c);
      break;
    }
    case Dist::FewDistinct: {
      K pool[5];
      for (auto& p : pool) p = K(rng.next());
      for (auto& x : k) x = pool[rng.next() % 5];
      break;
    }
    case Dist::LowEntropy:
      for (auto& x : k) x = K(rng.next() & rng.next() & rng.next());
      break;
  }
  return k;
}

inline std::vector<uint32_t> iota_values(uint64_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// Sort key seen by a sort over bits [begin_bit, end_bit).
template <typename K>
K window(K key, int begin_bit, int end_bit) {
  const int bits = end_bit - begin_bit;
  if (bits <= 0) return 0;
  const K shifted = K(key >> begin_bit);
  if (bits >= int(sizeof(K) * 8)) return shifted;
  return K(shifted & ((K(1) << bits) - 1));
}

// Checks that (out_keys, out_vals) is the stable sort of (in_keys, 0..n-1) by
// window(key): values are a permutation of 0..n-1, each output key is the
// input key its value points at, windows never decrease, and equal windows
// keep increasing values. O(n): used at every size.
template <typename K>
::testing::AssertionResult is_stable_sort_of(const std::vector<K>& in_keys,
                                             const std::vector<K>& out_keys,
                                             const std::vector<uint32_t>& out_vals,
                                             int begin_bit = 0, int end_bit = int(sizeof(K) * 8)) {
  const uint64_t n = in_keys.size();
  if (out_keys.size() != n || out_vals.size() != n)
    return ::testing::AssertionFailure() << "size changed";
  std::vector<bool> seen(n, false);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t v = out_vals[i];
    if (v >= n || seen[v])
      return ::testing::AssertionFailure() << "value " << v << " at " << i << " is not a permutation entry";
    seen[v] = true;
    if (out_keys[i] != in_keys[v])
      return ::testing::AssertionFailure() << "key at " << i << " is not the key of input " << v;
    if (i > 0) {
      const K a = window(out_keys[i - 1], begin_bit, end_bit), b = window(out_keys[i], begin_bit, end_bit);
      if (b < a) return ::testing::AssertionFailure() << "out of order at " << i << " of " << n;
      if (a == b && out_vals[i] < out_vals[i - 1])
        return ::testing::AssertionFailure() << "equal keys reordered (unstable) at " << i << " of " << n;
    }
  }
  return ::testing::AssertionSuccess();
}

// Reference: std::stable_sort of (key, index) by window(key).
template <typename K>
void reference_sort(const std::vector<K>& in_keys, std::vector<K>* keys, std::vector<uint32_t>* vals,
                    int begin_bit = 0, int end_bit = int(sizeof(K) * 8)) {
  std::vector<uint32_t> idx = iota_values(in_keys.size());
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    return window(in_keys[a], begin_bit, end_bit) < window(in_keys[b], begin_bit, end_bit);
  });
  keys->resize(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) (*keys)[i] = in_keys[idx[i]];
  *vals = std::move(idx);
}

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

// `count` keys drawn at random from `ordered` (doubles listed in numeric
// order) and normalised; (*class_of)[i] is key i's index in `ordered`, so
// a sorted output must have non-decreasing classes.
inline std::vector<uint64_t> shuffled_doubles(const std::vector<double>& ordered, int count, uint64_t seed,
                                              std::vector<int>* class_of) {
  std::vector<uint64_t> keys;
  SplitMix64 rng(seed);
  for (int i = 0; i < count; ++i) {
    const int c = int(rng.next() % ordered.size());
    keys.push_back(normalise_f64(ordered[c]));
    class_of->push_back(c);
  }
  return keys;
}

}  // namespace gsort::test
