// The host merge of sorted groups (no GPU needed).
#include "src/chunk_sort/gpu/host_merge.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/gpu/gpu_test_support.h"
#include "src/algo/merge_path.h"

namespace gsort::gpu {
namespace {

TEST(MergePath, SplitsLikeAStableMerge) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> a(rng() % 20), b(rng() % 20);
    for (int& x : a) x = static_cast<int>(rng() % 5);
    for (int& x : b) x = static_cast<int>(rng() % 5);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    // The stable merge, remembering which side each output came from.
    std::vector<bool> from_a;
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      const bool take_a = j == b.size() || (i < a.size() && !(b[j] < a[i]));
      from_a.push_back(take_a);
      take_a ? ++i : ++j;
    }
    uint64_t taken = 0;
    for (uint64_t d = 0; d <= a.size() + b.size(); ++d) {
      EXPECT_EQ(gsort::merge_path(a, a.size(), b, b.size(), d, [](int x, int y) { return x < y; }), taken)
          << "diagonal " << d;
      if (d < from_a.size() && from_a[d]) ++taken;
    }
  }
}

// Splits a reference order into runs of consecutive index ranges, sorts each
// and merges them back.
template <typename P>
void check_merge(const KeyLayout& layout, uint64_t count, uint64_t run_size, unsigned threads, uint64_t seed,
                 const test::DataSpec& spec = {}) {
  const std::vector<uint8_t> records = test::make_records(layout, count, seed, spec);
  const std::vector<uint32_t> want = test::reference_order(layout, records.data(), count);
  std::vector<std::vector<uint32_t>> orders;
  std::vector<std::vector<P>> keys;
  for (uint64_t first = 0; first < count; first += run_size) {
    const uint64_t n = std::min(run_size, count - first);
    std::vector<uint32_t> o(n);
    for (uint64_t k = 0; k < n; ++k) o[k] = static_cast<uint32_t>(first + k);
    std::stable_sort(o.begin(), o.end(), [&](uint32_t x, uint32_t y) {
      return layout.compare(&records[uint64_t{x} * layout.record_size()], &records[uint64_t{y} * layout.record_size()]) < 0;
    });
    std::vector<P> k(n);
    for (uint64_t m = 0; m < n; ++m) {
      const uint64_t word = layout.prefix(&records[uint64_t{o[m]} * layout.record_size()]);
      k[m] = static_cast<P>(layout.width() >= 8 ? word : word >> (64 - 8 * layout.width()));
    }
    orders.push_back(std::move(o));
    keys.push_back(std::move(k));
  }
  std::vector<SortedRun<P>> runs;
  for (size_t r = 0; r < orders.size(); ++r) runs.push_back({orders[r].data(), keys[r].data(), orders[r].size()});
  ThreadPool pool(threads);
  const RecordTieBreak ties{&layout, records.data(), layout.width() <= 8};
  std::vector<uint32_t> got(count, 0xFFFFFFFFu);
  merge_sorted_runs(pool, runs, ties, got.data());
  EXPECT_TRUE(test::same_order(want, got.data())) << count << " records in runs of " << run_size;
}

TEST(HostMerge, WideKeysBreakTiesOnRecords) {
  const KeyLayout layout({test::field("0:10")}, 16, false);
  test::DataSpec shared;
  shared.prefix_pool = 3;  // equal first words, different tails
  for (uint64_t run : {1ull, 7ull, 100ull, 1000ull, 5000ull}) {
    check_merge<uint64_t>(layout, 5000, run, 4, run);
    check_merge<uint64_t>(layout, 5000, run, 4, run, shared);
  }
  check_merge<uint64_t>(layout, 300000, 40000, 8, 3, shared);
}

TEST(HostMerge, WholeKeysOfEveryWidth) {
  check_merge<uint16_t>(KeyLayout({test::field("1:u16be:desc")}, 5, false), 7000, 900, 3, 1);
  check_merge<uint32_t>(KeyLayout({test::field("0:f32")}, 4, false), 7000, 1100, 3, 2);
  check_merge<uint64_t>(KeyLayout({test::field("0:i64")}, 8, false), 7000, 3000, 1, 3);
}

}  // namespace
}  // namespace gsort::gpu
