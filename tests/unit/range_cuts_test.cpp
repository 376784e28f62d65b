// The steps of the range cut that records and lines share
// (src/merge/range_cuts.h): where samples are taken, which become
// splitters, and how the runs' cuts become ranges.
#include "src/merge/range_cuts.h"

#include <gtest/gtest.h>

#include <vector>

namespace gsort {
namespace {

TEST(RangeCuts, SamplePlacesAreTheRunsShareEvenlySpaced) {
  EXPECT_TRUE(sample_places(0, 100, 10).empty());
  EXPECT_EQ(sample_places(100, 100, 4), (std::vector<uint64_t>{12, 37, 62, 87}));
  // A small run of many still gets one sample.
  EXPECT_EQ(sample_places(3, 1000000, 64).size(), 1u);
  // No more places than units.
  EXPECT_EQ(sample_places(5, 5, 100).size(), 5u);
}

TEST(RangeCuts, SplittersAtEvenSharesInKeyThenRunOrder) {
  // Keys 0..7 in two runs, each sample standing for 10 units: 80 in all.
  std::vector<RangeSample> samples;
  for (size_t k = 0; k < 8; ++k) samples.push_back(RangeSample{k % 2, k / 2, 10.0, 7 - k});
  const auto by_key = [](const RangeSample& a, const RangeSample& b) {
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
  const std::vector<RangeSample> chosen = choose_merge_splitters(samples, 80, 4, by_key, false);
  ASSERT_EQ(chosen.size(), 3u);
  EXPECT_EQ(chosen[0].key, 2u);
  EXPECT_EQ(chosen[1].key, 4u);
  EXPECT_EQ(chosen[2].key, 6u);
  // Equal keys: without whole_keys the tie goes by run; with it, one splitter a key.
  std::vector<RangeSample> equal;
  for (size_t k = 0; k < 8; ++k) equal.push_back(RangeSample{7 - k, 0, 10.0, 0});
  const std::vector<RangeSample> by_run = choose_merge_splitters(equal, 80, 4, by_key, false);
  ASSERT_EQ(by_run.size(), 3u);
  EXPECT_EQ(by_run[0].run, 2u);
  EXPECT_EQ(choose_merge_splitters(equal, 80, 4, by_key, true).size(), 1u);
}

TEST(RangeCuts, CutsRiseAndNoRangeIsEmpty) {
  ThreadPool pool(2);
  const std::vector<uint64_t> sizes{10, 0, 20};
  // Splitter 1 repeats splitter 0's cuts; splitter 2's fall back in run 0.
  const std::vector<std::vector<uint64_t>> given{{4, 0, 5}, {4, 0, 5}, {3, 0, 5}};
  const MergeRanges r = ranges_from_cuts(sizes, given.size(), [&](size_t p, size_t q) { return given[p][q]; }, pool);
  ASSERT_EQ(r.ranges(), 2u);
  EXPECT_EQ(r.cuts[0], (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(r.cuts[1], (std::vector<uint64_t>{4, 0, 5}));
  EXPECT_EQ(r.cuts[2], (std::vector<uint64_t>{10, 0, 20}));
  EXPECT_EQ(r.records_before(1), 9u);
  // Nothing to cut: no ranges.
  EXPECT_EQ(ranges_from_cuts({0, 0}, 0, [](size_t, size_t) { return uint64_t{0}; }, pool).ranges(), 0u);
}

}  // namespace
}  // namespace gsort
