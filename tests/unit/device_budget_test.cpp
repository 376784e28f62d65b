// DeviceBudget, the one account of --gpu-memory that a job's users of the
// device take from: together they never pass the cap, a share gives its
// bytes back when it goes, and without a cap every take succeeds.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "src/core/device_budget.h"

namespace gsort {
namespace {

TEST(DeviceBudget, UsersTogetherNeverPassTheCap) {
  auto budget = std::make_shared<DeviceBudget>(100);
  DeviceBudgetShare sorter(budget), store(budget);
  EXPECT_TRUE(store.hold(70));
  EXPECT_FALSE(sorter.hold(40)) << "70 + 40 passes 100";
  EXPECT_EQ(sorter.held(), 0u);
  EXPECT_TRUE(sorter.hold(30));
  EXPECT_EQ(budget->left(), 0u);
  EXPECT_FALSE(sorter.hold(31)) << "growing takes only the difference, and there is none";
  EXPECT_EQ(sorter.held(), 30u) << "a refused hold keeps what it held";
  EXPECT_TRUE(sorter.hold(10));  // shrinking gives back
  EXPECT_EQ(budget->taken(), 80u);
  store.reset();
  EXPECT_EQ(budget->taken(), 10u);
  {
    DeviceBudgetShare moved(std::move(sorter));
    EXPECT_EQ(moved.held(), 10u);
    EXPECT_EQ(sorter.held(), 0u);  // NOLINT(bugprone-use-after-move): moved from, holds nothing
  }
  EXPECT_EQ(budget->taken(), 0u) << "a share gives its bytes back when it goes";
}

TEST(DeviceBudget, NoCapTakesAnything) {
  auto budget = std::make_shared<DeviceBudget>(0);
  DeviceBudgetShare a(budget), none;
  EXPECT_TRUE(a.hold(uint64_t{1} << 40));
  EXPECT_TRUE(none.hold(5)) << "a share without a budget holds what it is asked";
  EXPECT_EQ(budget->left(), UINT64_MAX);
}

TEST(DeviceBudget, ThreadsTakingAtOnceStopAtTheCap) {
  DeviceBudget budget(1000);
  std::vector<std::thread> threads;
  std::vector<int> took(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) took[t] += budget.take(1);
    });
  }
  for (std::thread& t : threads) t.join();
  int total = 0;
  for (int t : took) total += t;
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(budget.taken(), 1000u);
}

}  // namespace
}  // namespace gsort
