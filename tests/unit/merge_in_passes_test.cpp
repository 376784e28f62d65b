// The merge passes' schedule (src/merge/merge_in_passes.h), which the
// records' merges and the lines' share: what each pass merges, that the
// sources stay in order, and that no source is rewritten for nothing.
#include "src/merge/merge_in_passes.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <vector>

namespace gsort {
namespace {

// Sources stand for the original sources they hold, in order: a source's
// host_bytes names its list here.
class ListMerger final : public GroupMerger {
 public:
  explicit ListMerger(size_t fan_in) { limits_.fan_in = fan_in, limits_.max_open_runs = fan_in; }
  const MergeLimits& limits() const override { return limits_; }
  const Log& log() const override { return log_; }
  PendingSource merge_to_run(std::vector<PendingSource> group) override {
    EXPECT_GE(group.size(), 2u);
    EXPECT_LE(group.size(), limits_.fan_in);
    PendingSource run;
    run.host_bytes = next_id_++;
    for (const PendingSource& s : group) {
      const std::vector<size_t>& held = lists_[s.host_bytes];
      lists_[run.host_bytes].insert(lists_[run.host_bytes].end(), held.begin(), held.end());
      rewritten_ += held.size();
      run.level = std::max(run.level, s.level + 1);
    }
    return run;
  }
  std::vector<PendingSource> sources(size_t n) {
    std::vector<PendingSource> v(n);
    for (size_t i = 0; i < n; ++i) {
      v[i].host_bytes = next_id_++;
      lists_[v[i].host_bytes] = {i};
    }
    return v;
  }
  const std::vector<size_t>& held(const PendingSource& s) { return lists_[s.host_bytes]; }
  size_t rewritten() const { return rewritten_; }

 private:
  MergeLimits limits_;
  Log log_{false};
  std::map<uint64_t, std::vector<size_t>> lists_;
  uint64_t next_id_ = 0;
  size_t rewritten_ = 0;
};

TEST(MergeInPasses, GroupsAreConsecutiveAndLeaveAtMostTheFanIn) {
  for (size_t fan_in = 2; fan_in <= 9; ++fan_in) {
    for (size_t waiting = 0; waiting <= 60; ++waiting) {
      const auto groups = pass_groups(waiting, fan_in);
      if (waiting <= fan_in) {
        EXPECT_TRUE(groups.empty()) << waiting << " " << fan_in;
        continue;
      }
      size_t left = waiting, last_end = 0;
      for (const auto& [begin, end] : groups) {
        EXPECT_GE(begin, last_end);
        EXPECT_GE(end - begin, 2u);
        EXPECT_LE(end - begin, fan_in);
        left -= end - begin - 1;
        last_end = end;
      }
      EXPECT_LE(last_end, waiting);
      // One pass leaves the fan-in exactly where fewer than twice it wait.
      if (waiting < 2 * fan_in) EXPECT_EQ(left, fan_in) << waiting << " " << fan_in;
      EXPECT_LT(left, waiting);
    }
  }
}

TEST(MergeInPasses, MergesDownToTheFanInKeepingTheOrder) {
  for (size_t fan_in : {2u, 3u, 4u, 16u}) {
    for (size_t n : {0u, 1u, 2u, 3u, 5u, 16u, 17u, 31u, 32u, 33u, 100u, 257u}) {
      ListMerger merger(fan_in);
      int passes = 0;
      const std::vector<PendingSource> left = merge_in_passes(
          merger.sources(n), merger, [&](int pass) { EXPECT_EQ(pass, passes + 1); },
          [&](int pass, size_t) { passes = pass; });
      EXPECT_LE(left.size(), std::max<size_t>(fan_in, std::min<size_t>(n, fan_in)));
      std::vector<size_t> order;
      for (const PendingSource& s : left) order.insert(order.end(), merger.held(s).begin(), merger.held(s).end());
      std::vector<size_t> expected(n);
      std::iota(expected.begin(), expected.end(), size_t{0});
      EXPECT_EQ(order, expected) << n << " sources, fan-in " << fan_in;
      if (n <= fan_in) EXPECT_EQ(passes, 0);
    }
  }
}

TEST(MergeInPasses, OnePassRewritesOnlyWhatLeavesTheFanIn) {
  // 20 sources, fan-in 16: the first 5 merged into one, the other 15 not read.
  ListMerger merger(16);
  const std::vector<PendingSource> left = merge_in_passes(merger.sources(20), merger, nullptr, nullptr);
  EXPECT_EQ(left.size(), 16u);
  EXPECT_EQ(merger.rewritten(), 5u);
  EXPECT_EQ(left[0].level, 1);
  for (size_t i = 1; i < left.size(); ++i) EXPECT_EQ(left[i].level, 0);
}

}  // namespace
}  // namespace gsort
