// The all-threads sort of (96 bits, line) entries (src/chunk_sort/cpu/pair_sort.h's
// sort_wide) against std::stable_sort: keys whose varying bits are few and
// scattered over the bytes, most entries alike in their top varying bits
// (sorted again within them), all equal, and sizes around the parallel threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/chunk_sort/cpu/pair_sort.h"
#include "tests/support/line_gen.h"

namespace gsort {
namespace {

using gsort_test::Rng;

bool before(const WideEntry& a, const WideEntry& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }

// n entries: each key's bits of `mask` random (hi's mask, then lo's), the
// rest fixed; `dominant` of every 8 entries share all but hi's low 4 bits.
std::vector<WideEntry> entries(Rng& rng, size_t n, uint64_t hi_mask, uint32_t lo_mask, uint64_t dominant) {
  std::vector<WideEntry> e(n);
  const uint64_t fixed_hi = 0x5A5A5A5A5A5A5A5Aull;
  for (size_t i = 0; i < n; ++i) {
    const bool common = rng.below(8) < dominant;
    const uint64_t hi = (common ? rng.below(16) : rng.below(uint64_t{1} << 62) * 4 + rng.below(4)) & hi_mask;
    const uint32_t lo = common ? 0 : static_cast<uint32_t>(rng.below(uint64_t{1} << 32)) & lo_mask;
    e[i] = WideEntry{(fixed_hi & ~hi_mask) | hi, lo, static_cast<uint32_t>(i)};
  }
  return e;
}

TEST(PairSort, AllThreadsSortIsTheStableSort) {
  Rng rng(96);
  ThreadPool pool(4);
  struct Shape {
    uint64_t hi_mask;
    uint32_t lo_mask;
    uint64_t dominant;
  };
  const std::vector<Shape> shapes = {
      {~uint64_t{0}, ~uint32_t{0}, 0},            // every bit varies
      {0x8001000000000100ull, 0x00010001u, 0},  // a few bits, one or two a byte
      {0xF000000000000000ull, 0xFFFFFFFFu, 7},  // one key for seven in eight, the rest low bits
      {0x0000000000000003ull, 0x0u, 4},         // two bits at the bottom of hi, half one key
      {0x000000000000FFFFull, 0x0u, 7},         // seven in eight differ below the scatter's 12 bits
      {0, 0, 0},                                // all equal
  };
  for (size_t n : {size_t{1000}, size_t{65535}, size_t{65536}, size_t{300000}}) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      std::vector<WideEntry> e = entries(rng, n, shapes[s].hi_mask, shapes[s].lo_mask, shapes[s].dominant);
      std::vector<WideEntry> expected = e, tmp(n);
      std::stable_sort(expected.begin(), expected.end(), before);
      sort_wide(pool, e.data(), tmp.data(), n);
      bool same = true;
      for (size_t i = 0; i < n && same; ++i) same = e[i].hi == expected[i].hi && e[i].lo == expected[i].lo && e[i].index == expected[i].index;
      EXPECT_TRUE(same) << "n " << n << ", shape " << s;
    }
  }
}

}  // namespace
}  // namespace gsort
