// The parallel merge's key ranges (src/merge/range_split.h): the cuts of
// sorted runs in memory, for any number of runs and ranges, over unique
// keys, heavy duplicates and one key: merging each range on its own and
// laying them end to end gives the stable merge of all runs; under -u no
// key is split between ranges; the ranges come out near even.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "io/run/sorted_records.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/merge/range_split.h"
#include "tests/support/rng.h"

namespace gsort_test {
namespace {

constexpr uint32_t kRs = 16;

// A sorted run in memory.
class MemoryRun final : public gsort::SortedRecords {
 public:
  explicit MemoryRun(std::vector<std::string> records) : records_(std::move(records)) {}
  uint64_t size() const override { return records_.size(); }
  void read_at(const std::vector<uint64_t>& indexes, uint8_t* dst) const override {
    for (const uint64_t i : indexes) dst = std::copy(records_[i].begin(), records_[i].end(), dst);
  }
  uint64_t partition_point(uint64_t lo, uint64_t hi,
                           const std::function<bool(const uint8_t*)>& before) const override {
    const auto it = std::partition_point(records_.begin() + lo, records_.begin() + hi, [&](const std::string& r) {
      return before(reinterpret_cast<const uint8_t*>(r.data()));
    });
    return static_cast<uint64_t>(it - records_.begin());
  }
  const std::string& at(uint64_t i) const { return records_[i]; }

 private:
  std::vector<std::string> records_;
};

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// `runs` runs of random lengths up to `most`: a u32 key below `distinct`
// at offset 0, then the run's number and the record's, each sorted (stably)
// by `layout`.
std::vector<MemoryRun> make_runs(size_t runs, uint64_t most, uint32_t distinct, const gsort::KeyLayout& layout,
                                 uint64_t seed) {
  Rng rng(seed);
  std::vector<MemoryRun> out;
  for (size_t r = 0; r < runs; ++r) {
    std::vector<std::string> records(rng.range(1, most));
    for (size_t i = 0; i < records.size(); ++i) {
      std::string& rec = records[i];
      rec.assign(kRs, '\0');
      const uint32_t key = static_cast<uint32_t>(rng.below(distinct));
      const uint32_t run = static_cast<uint32_t>(r), number = static_cast<uint32_t>(i);
      std::memcpy(&rec[0], &key, 4);
      std::memcpy(&rec[4], &run, 4);
      std::memcpy(&rec[8], &number, 4);
    }
    std::stable_sort(records.begin(), records.end(),
                     [&](const std::string& a, const std::string& b) { return layout.compare(bytes(a), bytes(b)) < 0; });
    out.emplace_back(std::move(records));
  }
  return out;
}

// The stable merge of `parts` laid end to end in run order.
std::vector<std::string> stable_merge(std::vector<std::string> all, const gsort::KeyLayout& layout) {
  std::stable_sort(all.begin(), all.end(),
                   [&](const std::string& a, const std::string& b) { return layout.compare(bytes(a), bytes(b)) < 0; });
  return all;
}

struct Split {
  std::vector<std::vector<std::string>> ranges;  // each merged on its own
};

Split split_and_merge(const std::vector<MemoryRun>& runs, const gsort::KeyLayout& layout, size_t ranges,
                      bool whole_keys, gsort::ThreadPool& pool) {
  std::vector<const gsort::SortedRecords*> pointers;
  for (const MemoryRun& r : runs) pointers.push_back(&r);
  gsort::SplitOptions options;
  options.ranges = ranges;
  options.whole_keys = whole_keys;
  const gsort::MergeRanges cut = gsort::split_ranges(pointers, layout, options, pool);
  EXPECT_LE(cut.ranges(), ranges);
  Split split;
  for (size_t p = 0; p < cut.ranges(); ++p) {
    std::vector<std::string> part;
    for (size_t r = 0; r < runs.size(); ++r) {
      EXPECT_LE(cut.cuts[p][r], cut.cuts[p + 1][r]);
      for (uint64_t i = cut.cuts[p][r]; i < cut.cuts[p + 1][r]; ++i) part.push_back(runs[r].at(i));
    }
    EXPECT_FALSE(part.empty()) << "range " << p << " is empty";
    EXPECT_EQ(cut.records_before(p) + part.size(), cut.records_before(p + 1));
    split.ranges.push_back(stable_merge(std::move(part), layout));
  }
  for (size_t r = 0; r < runs.size(); ++r) EXPECT_EQ(cut.cuts.back()[r], runs[r].size());
  return split;
}

std::vector<std::string> everything(const std::vector<MemoryRun>& runs) {
  std::vector<std::string> all;
  for (const MemoryRun& r : runs) {
    for (uint64_t i = 0; i < r.size(); ++i) all.push_back(r.at(i));
  }
  return all;
}

TEST(RangeSplit, RangesMergedOnTheirOwnGiveTheStableMerge) {
  gsort::ThreadPool pool(3);
  const gsort::KeyLayout forward({gsort::parse_key_spec("0:u32")}, kRs, false);
  const gsort::KeyLayout reverse({gsort::parse_key_spec("0:u32")}, kRs, true);
  const gsort::KeyLayout two_keys({gsort::parse_key_spec("1:u8:desc"), gsort::parse_key_spec("0:u32")}, kRs, false);
  for (const gsort::KeyLayout* layout : {&forward, &reverse, &two_keys}) {
    for (const uint32_t distinct : {1u << 30, 40u, 3u, 1u}) {
      for (const size_t runs : {size_t{1}, size_t{2}, size_t{7}, size_t{60}}) {
        for (const size_t ranges : {size_t{2}, size_t{5}, size_t{64}}) {
          for (const bool whole_keys : {false, true}) {
            SCOPED_TRACE(std::to_string(runs) + " runs, " + std::to_string(distinct) + " keys, " +
                         std::to_string(ranges) + " ranges" + (whole_keys ? ", whole keys" : "") +
                         (layout->fields().size() > 1 ? ", two keys" : "") +
                         (layout == &reverse ? ", -r" : ""));
            const std::vector<MemoryRun> input = make_runs(runs, 500, distinct, *layout, runs * 31 + distinct);
            const Split split = split_and_merge(input, *layout, ranges, whole_keys, pool);
            std::vector<std::string> joined;
            for (const auto& range : split.ranges) joined.insert(joined.end(), range.begin(), range.end());
            EXPECT_TRUE(joined == stable_merge(everything(input), *layout));
            if (distinct == 1 && whole_keys) EXPECT_EQ(split.ranges.size(), 1u) << "one key, one range";
            if (distinct > 1000 && runs >= 7) EXPECT_GT(split.ranges.size(), 1u);
            for (size_t p = 0; whole_keys && p + 1 < split.ranges.size(); ++p) {
              EXPECT_NE(layout->compare(bytes(split.ranges[p].back()), bytes(split.ranges[p + 1].front())), 0)
                  << "a key split between ranges " << p << " and " << p + 1;
            }
          }
        }
      }
    }
  }
}

TEST(RangeSplit, OneKeyIsStillCutWhereKeysMayBeSplit) {
  gsort::ThreadPool pool(2);
  const gsort::KeyLayout layout({gsort::parse_key_spec("0:u32")}, kRs, false);
  const std::vector<MemoryRun> input = make_runs(6, 2000, 1, layout, 5);
  const Split split = split_and_merge(input, layout, 8, false, pool);
  EXPECT_GE(split.ranges.size(), 6u) << "ties are cut by run and place";
}

TEST(RangeSplit, RangesHoldNearEvenShares) {
  gsort::ThreadPool pool(2);
  const gsort::KeyLayout layout({gsort::parse_key_spec("0:u32")}, kRs, false);
  for (const uint32_t distinct : {1u << 30, 1000u}) {
    const std::vector<MemoryRun> input = make_runs(8, 40000, distinct, layout, 9);
    uint64_t total = 0;
    for (const MemoryRun& r : input) total += r.size();
    const Split split = split_and_merge(input, layout, 16, false, pool);
    ASSERT_EQ(split.ranges.size(), 16u);
    for (const auto& range : split.ranges) {
      EXPECT_GT(range.size(), total / 16 / 2);
      EXPECT_LT(range.size(), total / 16 * 3 / 2);
    }
  }
}

TEST(RangeSplit, NoRecordsNoRanges) {
  gsort::ThreadPool pool(2);
  const gsort::KeyLayout layout({gsort::parse_key_spec("0:u32")}, kRs, false);
  const MemoryRun empty({});
  gsort::SplitOptions options;
  options.ranges = 4;
  EXPECT_EQ(gsort::split_ranges({&empty, &empty}, layout, options, pool).ranges(), 0u);
}

}  // namespace
}  // namespace gsort_test
