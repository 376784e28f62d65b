// write_ranges_in_order (src/merge/ordered_ranges.h): ranges filled by many
// threads in any order reach the stream in their own order, whatever the
// slots' memory allows (one slot or many), and an error of a filler or of
// the sink comes back to the caller with every thread stopped.
#include "src/merge/ordered_ranges.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Range p holds its number's letter repeated sizes[p] times.
std::string expected_of(const std::vector<uint64_t>& sizes) {
  std::string all;
  for (size_t p = 0; p < sizes.size(); ++p) all += std::string(sizes[p], static_cast<char>('a' + p % 26));
  return all;
}

std::vector<uint64_t> random_sizes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint64_t> sizes(n);
  for (uint64_t& s : sizes) s = rng() % 5000;  // some empty
  return sizes;
}

// Fills with a yield now and then, so that later ranges often finish first.
gsort::FillRange letters(const std::vector<uint64_t>& sizes) {
  return [&sizes](size_t p, uint8_t* out) {
    if (p % 3 == 0) std::this_thread::yield();
    std::memset(out, 'a' + static_cast<int>(p % 26), sizes[p]);
  };
}

TEST(OrderedRanges, ReachTheStreamInTheirOrderWhateverTheMemory) {
  gsort::ThreadPool pool(4);
  const std::vector<uint64_t> sizes = random_sizes(300, 11);
  for (const uint64_t memory : {uint64_t{0}, uint64_t{5000}, uint64_t{20000}, uint64_t{1} << 30}) {
    SCOPED_TRACE(memory);
    std::string sunk;
    const gsort::RangeSink sink = [&](const uint8_t* d, size_t n) { sunk.append(reinterpret_cast<const char*>(d), n); };
    std::atomic<uint64_t> written{0};
    const gsort::OrderedRangesFigures f =
        gsort::write_ranges_in_order(pool, 4, sizes, memory, [&] { return letters(sizes); }, sink, &written);
    EXPECT_TRUE(sunk == expected_of(sizes));
    EXPECT_EQ(f.bytes, sunk.size());
    EXPECT_EQ(written.load(), sunk.size());
    EXPECT_GE(f.slots, 1u);
    EXPECT_LE(f.slots, 6u);  // the workers, one writing, one spare
  }
}

TEST(OrderedRanges, AFillersErrorStopsEveryThreadAndComesBack) {
  gsort::ThreadPool pool(4);
  const std::vector<uint64_t> sizes = random_sizes(200, 12);
  const gsort::RangeSink target = [](const uint8_t*, size_t) {};
  const auto failing = [&]() -> gsort::FillRange {
    return [&sizes](size_t p, uint8_t* out) {
      if (p == 77) throw std::runtime_error("range 77 failed");
      std::memset(out, 'x', sizes[p]);
    };
  };
  try {
    gsort::write_ranges_in_order(pool, 4, sizes, 20000, failing, target, nullptr);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "range 77 failed");
  }
}

TEST(OrderedRanges, TheSinksErrorStopsTheFillers) {
  gsort::ThreadPool pool(4);
  const std::vector<uint64_t> sizes(500, 100);
  uint64_t taken = 0;
  const gsort::RangeSink target = [&taken](const uint8_t*, size_t n) {
    taken += n;
    if (taken > 3000) throw std::runtime_error("disk full");
  };
  std::atomic<size_t> filled{0};
  const auto counting = [&]() -> gsort::FillRange {
    return [&](size_t, uint8_t* out) {
      std::memset(out, 'y', 100);
      ++filled;
    };
  };
  EXPECT_THROW(gsort::write_ranges_in_order(pool, 4, sizes, 1000, counting, target, nullptr), std::runtime_error);
  EXPECT_LT(filled.load(), sizes.size()) << "the fillers went on after the sink failed";
}

}  // namespace
