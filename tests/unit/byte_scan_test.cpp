// The byte scanner (src/algo/byte_scan.h) against a byte-by-byte loop.
#include "src/algo/byte_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace gsort {
namespace {

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, uint64_t n, int alphabet) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng() % static_cast<uint64_t>(alphabet));
  return v;
}

TEST(ByteScan, FindsAndCountsEveryPlaceAtEveryLengthAndOffset) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 400; ++round) {
    const uint64_t n = rng() % 300;
    const uint64_t offset = rng() % 17;  // unaligned starts
    const int alphabet = round % 3 == 0 ? 2 : round % 3 == 1 ? 7 : 256;
    std::vector<uint8_t> buf = random_bytes(rng, n + offset, alphabet);
    const uint8_t b = static_cast<uint8_t>(round % 4 == 0 ? 255 : rng() % static_cast<uint64_t>(alphabet));
    const uint8_t* p = buf.data() + offset;
    std::vector<uint64_t> expected;
    for (uint64_t i = 0; i < n; ++i) {
      if (p[i] == b) expected.push_back(i);
    }
    EXPECT_EQ(count_byte(p, n, b), expected.size()) << "n " << n;
    std::vector<uint64_t> found;
    const uint64_t calls = for_each_byte(p, n, b, [&](uint64_t at) {
      found.push_back(at);
      return true;
    });
    EXPECT_EQ(found, expected) << "n " << n;
    EXPECT_EQ(calls, expected.size());
    // Stopping early: only the first `limit` are reported.
    const uint64_t limit = expected.empty() ? 0 : rng() % expected.size();
    found.clear();
    for_each_byte(p, n, b, [&](uint64_t at) {
      found.push_back(at);
      return found.size() < limit;
    });
    const uint64_t want = expected.empty() ? 0 : std::max<uint64_t>(limit, 1);
    ASSERT_EQ(found.size(), want);
    for (uint64_t k = 0; k < want; ++k) EXPECT_EQ(found[k], expected[k]);
  }
}

TEST(ByteScan, CountsPastTheLaneLimit) {
  // Every byte a match: more than 255 steps of 16 bytes per lane sum.
  std::vector<uint8_t> all(100000, '\n');
  EXPECT_EQ(count_byte(all.data(), all.size(), '\n'), all.size());
  EXPECT_EQ(count_byte(all.data(), all.size(), 0), 0u);
}

}  // namespace
}  // namespace gsort
