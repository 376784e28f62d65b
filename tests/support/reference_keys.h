// The reference for sorts of bare integer keys with 32-bit values (the
// GPU kernels' key/value sorts): std::stable_sort of (key, index) by the
// key's bit window, and an O(n) check that an output is that stable sort.
// Header-only templates, so the .cu kernel tests can use them too.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace gsort_test {

inline std::vector<uint32_t> iota_values(uint64_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// The key a sort over bits [begin_bit, end_bit) sees.
template <typename K>
K window(K key, int begin_bit, int end_bit) {
  const int bits = end_bit - begin_bit;
  if (bits <= 0) return 0;
  const K shifted = K(key >> begin_bit);
  if (bits >= int(sizeof(K) * 8)) return shifted;
  return K(shifted & ((K(1) << bits) - 1));
}

// keys and vals after a stable sort of (in_keys, 0..n-1) by window(key).
template <typename K>
void reference_sort_keys(const std::vector<K>& in_keys, std::vector<K>* keys, std::vector<uint32_t>* vals,
                         int begin_bit = 0, int end_bit = int(sizeof(K) * 8)) {
  std::vector<uint32_t> idx = iota_values(in_keys.size());
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    return window(in_keys[a], begin_bit, end_bit) < window(in_keys[b], begin_bit, end_bit);
  });
  keys->resize(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) (*keys)[i] = in_keys[idx[i]];
  *vals = std::move(idx);
}

// Checks that (out_keys, out_vals) is the stable sort of (in_keys, 0..n-1) by
// window(key): values are a permutation of 0..n-1, each output key is the
// input key its value points at, windows never decrease, and equal windows
// keep increasing values. O(n): used at every size.
template <typename K>
::testing::AssertionResult is_stable_sort_of(const std::vector<K>& in_keys, const std::vector<K>& out_keys,
                                             const std::vector<uint32_t>& out_vals, int begin_bit = 0,
                                             int end_bit = int(sizeof(K) * 8)) {
  const uint64_t n = in_keys.size();
  if (out_keys.size() != n || out_vals.size() != n) return ::testing::AssertionFailure() << "size changed";
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

}  // namespace gsort_test
