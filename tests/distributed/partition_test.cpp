// Partitioner (src/distributed/partition/partition.h): each record goes to the rank
// whose range holds its (key, global record number), buckets keep input
// order, and a scatter split over two calls (the other ranks' buckets, then
// the rank's own, as the whole-slice exchange does) gives the same bytes as
// one. The reference finds destinations by comparing (record bytes, index)
// pairs with std::lexicographical_compare, not through Splitters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/distributed/partition/partition.h"
#include "src/distributed/partition/splitters.h"
#include "src/keys/key_layout.h"

namespace {

constexpr uint32_t kRecordSize = 6;  // the whole record is the key (memcmp order)
constexpr uint64_t kFirstIndex = 1000;  // the slice's first global record number

struct Case {
  std::vector<uint8_t> records;
  std::vector<uint64_t> splitter_rows;  // records whose positions are the splitters
};

// Keys drawn from `distinct` values, so that most are duplicates.
std::vector<uint8_t> make_records(uint64_t count, unsigned distinct, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> records(count * kRecordSize);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t v = rng() % distinct;
    for (uint32_t b = 0; b < kRecordSize; ++b) records[i * kRecordSize + b] = static_cast<uint8_t>(v >> (8 * (b % 2)));
  }
  return records;
}

bool before_or_at(const uint8_t* a, uint64_t a_index, const uint8_t* b, uint64_t b_index) {
  // (a, a_index) <= (b, b_index), keys first.
  if (std::lexicographical_compare(a, a + kRecordSize, b, b + kRecordSize)) return true;
  if (std::lexicographical_compare(b, b + kRecordSize, a, a + kRecordSize)) return false;
  return a_index <= b_index;
}

// Splitters at the given rows (sorted by position), and the reference buckets.
struct Reference {
  gsort::Splitters splitters;
  std::vector<std::vector<uint8_t>> buckets;
};

Reference reference(const gsort::KeyLayout& layout, const std::vector<uint8_t>& records,
                    std::vector<uint64_t> rows, int ranks) {
  const uint8_t* r = records.data();
  std::sort(rows.begin(), rows.end(), [&](uint64_t a, uint64_t b) {
    return before_or_at(r + a * kRecordSize, a, r + b * kRecordSize, b) && a != b;
  });
  const uint32_t bytes = layout.width() + 8;
  std::vector<uint8_t> positions(rows.size() * bytes);
  for (size_t i = 0; i < rows.size(); ++i) {
    gsort::write_order_position(layout, r + rows[i] * kRecordSize, kFirstIndex + rows[i], &positions[i * bytes]);
  }
  Reference ref{gsort::Splitters(bytes, positions), std::vector<std::vector<uint8_t>>(static_cast<size_t>(ranks))};
  const uint64_t count = records.size() / kRecordSize;
  for (uint64_t i = 0; i < count; ++i) {
    size_t d = 0;
    for (uint64_t s : rows) {
      if (before_or_at(r + s * kRecordSize, s, r + i * kRecordSize, i)) ++d;
    }
    ref.buckets[d].insert(ref.buckets[d].end(), r + i * kRecordSize, r + (i + 1) * kRecordSize);
  }
  return ref;
}

class PartitionerTest : public ::testing::TestWithParam<std::tuple<uint64_t, unsigned, bool>> {};

TEST_P(PartitionerTest, BucketsMatchTheReferenceInOneCallAndInTwo) {
  const auto [count, distinct, pooled] = GetParam();
  const int ranks = 4;
  const gsort::KeyLayout layout = gsort::KeyLayout::whole_record(kRecordSize, false);
  const std::vector<uint8_t> records = make_records(count, distinct, 7);
  std::vector<uint64_t> rows;
  for (int s = 1; s < ranks && count > 0; ++s) rows.push_back(count * static_cast<uint64_t>(s) / ranks);
  const Reference ref = reference(layout, records, rows, ranks);
  gsort::ThreadPool pool(4);

  for (int split = 0; split < 2; ++split) {
    gsort::Partitioner partitioner(layout, ref.splitters, ranks, pooled ? &pool : nullptr);
    partitioner.classify(records.data(), count, kFirstIndex);
    std::vector<std::vector<uint8_t>> got(static_cast<size_t>(ranks));
    std::vector<uint8_t*> places(static_cast<size_t>(ranks));
    for (int d = 0; d < ranks; ++d) {
      ASSERT_EQ(partitioner.counts()[d] * kRecordSize, ref.buckets[d].size()) << "bucket " << d;
      got[d].assign(ref.buckets[d].size() + kRecordSize, 0xEE);  // one guard record past the end
      places[d] = got[d].data();
    }
    if (split == 0) {
      partitioner.scatter(records.data(), places);
    } else {
      const int own = 2;
      std::vector<uint8_t*> others = places, mine(static_cast<size_t>(ranks), nullptr);
      others[own] = nullptr;
      mine[own] = places[own];
      partitioner.scatter(records.data(), others);
      for (uint64_t b = 0; b < got[own].size(); ++b) ASSERT_EQ(got[own][b], 0xEE) << "own bucket written early";
      partitioner.scatter(records.data(), mine);
    }
    for (int d = 0; d < ranks; ++d) {
      EXPECT_TRUE(std::equal(ref.buckets[d].begin(), ref.buckets[d].end(), got[d].begin()))
          << "bucket " << d << (split ? " (two calls)" : " (one call)");
      for (uint32_t b = 0; b < kRecordSize; ++b) EXPECT_EQ(got[d][ref.buckets[d].size() + b], 0xEE) << "overrun";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, PartitionerTest,
                         ::testing::Values(std::make_tuple(uint64_t{0}, 10u, true),
                                           std::make_tuple(uint64_t{1}, 10u, false),
                                           std::make_tuple(uint64_t{1000}, 3u, false),
                                           std::make_tuple(uint64_t{300000}, 1u, true),  // all keys equal
                                           std::make_tuple(uint64_t{300000}, 50u, true),
                                           std::make_tuple(uint64_t{300001}, 65536u, true)),
                         [](const ::testing::TestParamInfo<std::tuple<uint64_t, unsigned, bool>>& p) {
                           return "n" + std::to_string(std::get<0>(p.param)) + "_distinct" +
                                  std::to_string(std::get<1>(p.param)) + (std::get<2>(p.param) ? "_pooled" : "");
                         });

TEST(PartitionerTest, PartitionPutsBucketsBackToBackInRankOrder) {
  const gsort::KeyLayout layout = gsort::KeyLayout::whole_record(kRecordSize, false);
  const uint64_t count = 200000;
  const std::vector<uint8_t> records = make_records(count, 1000, 11);
  const Reference ref = reference(layout, records, {count / 3, 2 * count / 3}, 3);
  gsort::ThreadPool pool(3);
  gsort::Partitioner partitioner(layout, ref.splitters, 3, &pool);
  std::vector<uint8_t> out(records.size());
  partitioner.partition(records.data(), count, kFirstIndex, out.data());
  std::vector<uint8_t> expected;
  for (const auto& b : ref.buckets) expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(out, expected);
}

}  // namespace

namespace {

// Up to 256 ranks a record's destination is kept in a byte; beyond, in 4.
class PartitionerRanksTest : public ::testing::TestWithParam<int> {};

TEST_P(PartitionerRanksTest, EveryRankCountFindsTheReferenceBuckets) {
  const int ranks = GetParam();
  const gsort::KeyLayout layout = gsort::KeyLayout::whole_record(kRecordSize, false);
  const uint64_t count = 20000;
  const std::vector<uint8_t> records = make_records(count, 5000, 5);
  std::vector<uint64_t> rows;
  for (int s = 1; s < ranks; ++s) rows.push_back(count * static_cast<uint64_t>(s) / ranks);
  const Reference ref = reference(layout, records, rows, ranks);
  gsort::ThreadPool pool(2);
  gsort::Partitioner partitioner(layout, ref.splitters, ranks, &pool);
  std::vector<uint8_t> out(records.size());
  partitioner.partition(records.data(), count, kFirstIndex, out.data());
  std::vector<uint8_t> expected;
  for (int d = 0; d < ranks; ++d) {
    EXPECT_EQ(partitioner.counts()[d] * kRecordSize, ref.buckets[d].size()) << "bucket " << d;
    expected.insert(expected.end(), ref.buckets[d].begin(), ref.buckets[d].end());
  }
  EXPECT_EQ(out, expected);
}

INSTANTIATE_TEST_SUITE_P(Ranks, PartitionerRanksTest, ::testing::Values(2, 256, 257, 300),
                         [](const ::testing::TestParamInfo<int>& p) { return "ranks" + std::to_string(p.param); });

}  // namespace
