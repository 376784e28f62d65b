// A stream read through two small stages (src/core/staged_stream.h): every
// byte lands in place, in order, whatever sizes the source hands out and
// however large the stages; a whole number of units per stage; the read
// stops at `most` or at the stream's end; each arrival reports a prefix
// already in place, growing, the last the whole; an error from the source
// is rethrown once the copies under way have ended.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/core/staged_stream.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

// Whether to[0, n) holds data's bytes from `from`.
bool holds(const std::vector<uint8_t>& to, uint64_t n, const std::string& data, size_t from = 0) {
  return n == 0 || std::memcmp(to.data(), data.data() + from, n) == 0;
}

// Hands out `data` in pieces of 1 to `most_piece` bytes (at most what is
// asked), as a pipe might; after `fail_after` bytes it throws.
struct Source {
  std::string data;
  size_t at = 0;
  uint64_t most_piece;
  size_t fail_after = SIZE_MAX;
  gsort_test::Rng rng{7};
  uint64_t read(uint8_t* into, uint64_t most) {
    // A stream's read fills what is asked unless the stream ends (InputFile::read).
    uint64_t n = 0;
    while (n < most && at < data.size()) {
      if (at >= fail_after) throw std::runtime_error("the source failed");
      const uint64_t k = std::min<uint64_t>({most - n, data.size() - at, 1 + rng.below(most_piece)});
      std::copy(data.begin() + at, data.begin() + at + k, into + n);
      at += k;
      n += k;
    }
    return n;
  }
};

TEST(StagedStream, EveryByteLandsInPlaceAndArrivalsArePrefixes) {
  gsort_test::Rng rng(11);
  for (const uint64_t stage : {uint64_t{1}, uint64_t{7}, uint64_t{4096}, uint64_t{1} << 20}) {
    for (const size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{300000}}) {
      if (size / stage > 5000) continue;  // a queued copy a stage: enough of them
      SCOPED_TRACE("stage " + std::to_string(stage) + ", " + std::to_string(size) + " bytes");
      Source source{rng.bytes(size), 0, 1 + rng.below(9000)};
      std::vector<uint8_t> to(size + 100, 0xAB);
      StagedStream staged(1, stage, 1 + rng.below(3 * stage));  // arrivals told often
      uint64_t last = 0;
      const uint64_t n = staged.read([&](uint8_t* p, uint64_t m) { return source.read(p, m); }, to.data(), to.size(),
                                     [&](uint64_t arrived) {
                                       EXPECT_GE(arrived, last);
                                       EXPECT_TRUE(holds(to, arrived, source.data))
                                           << "an arrival before its bytes were in place";
                                       last = arrived;
                                     });
      EXPECT_EQ(n, size);
      EXPECT_EQ(last, size);
      EXPECT_TRUE(holds(to, size, source.data));
      EXPECT_TRUE(std::all_of(to.begin() + size, to.end(), [](uint8_t b) { return b == 0xAB; })) << "wrote past the end";
    }
  }
}

TEST(StagedStream, StopsAtMostAndKeepsWholeUnits) {
  Source source{gsort_test::Rng(12).bytes(100000), 0, 777};
  std::vector<uint8_t> to(50000);
  StagedStream staged(100, 1050, 3000);  // stages of 1000 bytes: ten 100-byte units
  std::vector<uint64_t> arrivals;
  const uint64_t n = staged.read([&](uint8_t* p, uint64_t m) {
    EXPECT_EQ(m % 100, 0u) << "a stage that is not whole units";
    return source.read(p, m);
  }, to.data(), to.size(), [&](uint64_t a) { arrivals.push_back(a); });
  EXPECT_EQ(n, 50000u);
  EXPECT_EQ(source.at, 50000u) << "read past `most`";
  EXPECT_TRUE(holds(to, to.size(), source.data));
  ASSERT_FALSE(arrivals.empty());
  EXPECT_EQ(arrivals.back(), 50000u);
  // The rest is read by the next call, from where the stream stands.
  std::vector<uint8_t> rest(60000);
  EXPECT_EQ(staged.read([&](uint8_t* p, uint64_t m) { return source.read(p, m); }, rest.data(), rest.size(), nullptr),
            50000u);
  EXPECT_TRUE(holds(rest, 50000, source.data, 50000));
}

TEST(StagedStream, AnErrorFromTheSourceIsRethrown) {
  Source source{gsort_test::Rng(13).bytes(200000), 0, 5000, 120000};
  std::vector<uint8_t> to(200000);
  StagedStream staged(1, 8192, 1);
  uint64_t last = 0;
  EXPECT_THROW(staged.read([&](uint8_t* p, uint64_t m) { return source.read(p, m); }, to.data(), to.size(),
                           [&](uint64_t a) { last = a; }),
               std::runtime_error);
  EXPECT_LE(last, 120000u);
  EXPECT_TRUE(holds(to, last, source.data));
}

}  // namespace
}  // namespace gsort
