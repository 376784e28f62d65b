// merge_path on the CPU: runs everywhere, no GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/algo/merge_path.h"
#include "tests/gpu/kernel_test_util.cuh"

namespace {

using gsort::merge_path;
using gsort_test::Rng;

struct Tagged {
  uint64_t key;
  int from_a;
};

// How many of the first diag outputs of a stable merge (ties: a first) come from a.
uint64_t brute_force_split(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, uint64_t diag) {
  std::vector<Tagged> ta, tb, out;
  for (auto k : a) ta.push_back({k, 1});
  for (auto k : b) tb.push_back({k, 0});
  std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(out),
             [](const Tagged& x, const Tagged& y) { return x.key < y.key; });
  uint64_t from_a = 0;
  for (uint64_t i = 0; i < diag; ++i) from_a += out[i].from_a;
  return from_a;
}

std::vector<uint64_t> sorted_random(Rng& rng, size_t n, uint64_t range) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng.next() % range;
  std::sort(v.begin(), v.end());
  return v;
}

TEST(KernelMergePathHost, MatchesBruteForceOnEveryDiagonal) {
  Rng rng(42);
  const size_t sizes[] = {0, 1, 2, 3, 7, 16, 33};
  const uint64_t ranges[] = {1, 3, 10, 1000000};  // 1 and 3: heavy ties
  for (size_t na : sizes)
    for (size_t nb : sizes)
      for (uint64_t range : ranges) {
        auto a = sorted_random(rng, na, range), b = sorted_random(rng, nb, range);
        for (uint64_t diag = 0; diag <= na + nb; ++diag) {
          const uint64_t got = merge_path(a.data(), uint64_t(na), b.data(), uint64_t(nb), diag);
          ASSERT_EQ(got, brute_force_split(a, b, diag))
              << "na=" << na << " nb=" << nb << " range=" << range << " diag=" << diag;
        }
      }
}

TEST(KernelMergePathHost, EmptyAndExtremeDiagonals) {
  const std::vector<uint64_t> a = {1, 2, 2, 5}, b = {2, 2, 3};
  EXPECT_EQ(merge_path(a.data(), uint64_t(4), b.data(), uint64_t(3), uint64_t(0)), 0u);
  EXPECT_EQ(merge_path(a.data(), uint64_t(4), b.data(), uint64_t(3), uint64_t(7)), 4u);
  EXPECT_EQ(merge_path(a.data(), uint64_t(4), b.data(), uint64_t(0), uint64_t(3)), 3u);
  EXPECT_EQ(merge_path(a.data(), uint64_t(0), b.data(), uint64_t(3), uint64_t(2)), 0u);
  // Ties go to a: after 1, the 2s of a come before the 2s of b.
  EXPECT_EQ(merge_path(a.data(), uint64_t(4), b.data(), uint64_t(3), uint64_t(3)), 3u);
  EXPECT_EQ(merge_path(a.data(), uint64_t(4), b.data(), uint64_t(3), uint64_t(4)), 3u);
}

// Merging tile by tile from merge_path splits gives std::merge's stable result.
TEST(KernelMergePathHost, TiledMergeEqualsStdMerge) {
  Rng rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t na = rng.next() % 500, nb = rng.next() % 500;
    auto a = sorted_random(rng, na, 20), b = sorted_random(rng, nb, 20);
    std::vector<Tagged> ta, tb, expect, got;
    for (size_t i = 0; i < na; ++i) ta.push_back({a[i], int(i)});
    for (size_t i = 0; i < nb; ++i) tb.push_back({b[i], int(100000 + i)});
    std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(expect),
               [](const Tagged& x, const Tagged& y) { return x.key < y.key; });
    const uint64_t tile = 1 + rng.next() % 40, total = na + nb;
    for (uint64_t d0 = 0; d0 < total; d0 += tile) {
      const uint64_t d1 = std::min(total, d0 + tile);
      uint64_t ai = merge_path(a.data(), uint64_t(na), b.data(), uint64_t(nb), d0);
      uint64_t bi = d0 - ai;
      const uint64_t ae = merge_path(a.data(), uint64_t(na), b.data(), uint64_t(nb), d1);
      const uint64_t be = d1 - ae;
      while (ai < ae || bi < be) {
        const bool take_a = ai < ae && (bi >= be || !(b[bi] < a[ai]));
        got.push_back(take_a ? ta[ai++] : tb[bi++]);
      }
    }
    ASSERT_EQ(got.size(), expect.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].key, expect[i].key) << i;
      ASSERT_EQ(got[i].from_a, expect[i].from_a) << i;
    }
  }
}

// 64-bit counts: two virtual runs of 2^40 keys each (evens and odds).
struct Evens {
  __host__ __device__ uint64_t operator[](uint64_t i) const { return 2 * i; }
};
struct Odds {
  __host__ __device__ uint64_t operator[](uint64_t i) const { return 2 * i + 1; }
};

TEST(KernelMergePathHost, SixtyFourBitLengths) {
  const uint64_t len = uint64_t(1) << 40;
  for (uint64_t diag : {uint64_t(0), uint64_t(1), uint64_t(5), (uint64_t(1) << 33) + 3, len + 1,
                        2 * len - 1, 2 * len}) {
    const uint64_t got = merge_path(Evens{}, len, Odds{}, len, diag);
    EXPECT_EQ(got, (diag + 1) / 2) << diag;
  }
}

}  // namespace
