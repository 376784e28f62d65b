// The tie refinement (src/chunk_sort/lines/tie_refine.h) does a bounded amount of
// work per line and key, whatever a key's length: it finds each key once
// per level (not once per image word), and parses a tied number a bounded
// number of times. keys_located() counts both; the order is checked
// against the reference. Issue 37: a text key with an end position,
// compared after an earlier key tied, was found again for every word of
// its image, which is quadratic in its length.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/tie_refine.h"
#include "src/core/thread_pool.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

struct Refined {
  std::vector<uint32_t> order;
  uint64_t located = 0;
  bool cache_untouched = false;  // every cache entry as it was before
};

// All the lines as one tied segment at `level`, depth 0, refined on one
// thread (serial) or on the pool's (parallel).
Refined refine_all(const std::vector<std::string>& lines, const std::vector<std::string>& args, uint32_t level,
                   bool parallel) {
  const LineSpec spec = gsort_test::spec_of_args(args);
  const gsort_test::LineChunk chunk = gsort_test::make_chunk(lines, '\n');
  const LineSpan span = chunk.span();
  ThreadPool pool(2);
  std::vector<LineCache> cache(lines.size());
  std::memset(static_cast<void*>(cache.data()), 0xa5, cache.size() * sizeof(LineCache));
  const std::vector<LineCache> before = cache;
  std::vector<KeyEntry> e(lines.size()), tmp(lines.size());
  for (uint32_t i = 0; i < lines.size(); ++i) e[i] = KeyEntry{0, i};
  TieRefiner refiner(spec, span, pool, cache.data(), CachedWords{});
  const std::vector<TieSegment> all{TieSegment{0, lines.size(), 0, level}};
  parallel ? refiner.refine(e.data(), tmp.data(), all) : refiner.refine_serial(e.data(), tmp.data(), all);
  Refined r;
  for (const KeyEntry& x : e) r.order.push_back(x.index);
  r.located = refiner.keys_located();
  r.cache_untouched = std::memcmp(static_cast<const void*>(cache.data()), static_cast<const void*>(before.data()),
                                  cache.size() * sizeof(LineCache)) == 0;
  return r;
}

TEST(TieRefine, FindsALaterKeyOncePerLineNotOncePerWord) {
  // The two lines: -k1,1 ties, -k2,2 is 80,000 bytes long.
  const std::vector<std::string> lines(2, "x " + std::string(80000, 'a'));
  const std::vector<std::string> args = {"-k1,1", "-k2,2"};
  const Refined r = refine_all(lines, args, 0, false);
  EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(args), lines));
  // Each line's key at each of the three levels (-k1,1, -k2,2, the whole line), once.
  EXPECT_LE(r.located, 2u * 3u);
}

TEST(TieRefine, LongKeysThatDifferLateAreFoundOncePerLevel) {
  std::vector<std::string> lines;
  for (char c : std::string("cabab")) lines.push_back("x " + std::string(30000, 'a') + c + " y");
  const std::vector<std::string> args = {"-k1,1", "-k2,2r", "-s"};
  for (bool parallel : {false, true}) {
    const Refined r = refine_all(lines, args, 0, parallel);
    EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(args), lines));
    EXPECT_LE(r.located, lines.size() * 2) << (parallel ? "parallel" : "serial");
  }
}

TEST(TieRefine, ManyTiedLinesOnAllThreadsFindEachKeyOncePerLevel) {
  // Past the size where a segment is refined with all threads.
  std::vector<std::string> lines;
  for (int i = 0; i < 70000; ++i) lines.push_back("k " + std::string(200, 'a') + std::to_string(i % 7));
  const std::vector<std::string> args = {"-k1,1", "-k2,2f", "-u"};
  const Refined r = refine_all(lines, args, 0, true);
  EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(args), lines));
  EXPECT_LE(r.located, lines.size() * 2);
}

TEST(TieRefine, ParsesATiedLongNumberABoundedNumberOfTimes) {
  const std::string digits(80000, '7');
  const std::vector<std::string> lines = {digits + "1", digits, digits + "1", "-" + digits, digits};
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-n"}, {"-k1,1h", "-s"}, {"-n", "-r"}}) {
    const Refined r = refine_all(lines, args, 0, false);
    EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(args), lines)) << args[0];
    // Placed once, parsed for each word of the image the refinement reads.
    EXPECT_LE(r.located, lines.size() * (1 + kCostlyWordsByImage + 1)) << args[0];
  }
}

TEST(TieRefine, StartsAtALaterLevelWithItsKeysPlaced) {
  const std::vector<std::string> lines = {"b " + std::string(5000, 'z'), "a " + std::string(5000, 'z'),
                                          "b " + std::string(4999, 'z')};
  const std::vector<std::string> args = {"-k1,1n", "-k2,2", "-k1,1"};
  const Refined r = refine_all(lines, args, 1, false);
  EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(args), lines));
  EXPECT_LE(r.located, lines.size() * 4);
}

// The last resort is the line itself: a segment tied there is read where
// its lines lie, never placed in the cache (a page fault for each tied
// line where few lines tie among many), and no key is searched for. Lines
// that differ late, only in length, by a trailing NUL, and duplicates.
TEST(TieRefine, TheLastResortIsReadWhereTheLinesLie) {
  std::vector<std::string> lines;
  for (int i = 0; i < 3000; ++i) {
    std::string line = "key," + std::string(static_cast<size_t>(i % 40), 'm') + std::to_string((i * 7919) % 500);
    if (i % 11 == 0) line.push_back('\0');
    lines.push_back(line);
  }
  const std::vector<std::string> args = {"-t,", "-k1,1"};
  for (const std::vector<std::string>& with : {args, std::vector<std::string>{"-t,", "-k1,1", "-r"}}) {
    for (bool parallel : {false, true}) {
      const Refined r = refine_all(lines, with, 1, parallel);  // level 1: the last resort
      EXPECT_EQ(r.order, gsort_test::reference_order(gsort_test::spec_of_args(with), lines)) << parallel;
      EXPECT_EQ(r.located, 0u) << parallel;
      EXPECT_TRUE(r.cache_untouched) << (parallel ? "parallel" : "serial");
    }
  }
}

}  // namespace
}  // namespace gsort
