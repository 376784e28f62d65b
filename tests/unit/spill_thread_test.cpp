// The spill thread both units write their runs on (src/pipeline/
// spill_thread.h): the gather, then the finish, on a thread of its own,
// whose figures finish() returns; its span and steps in the report; an
// error from either step rethrown by finish() and the thread free again; a
// run still in flight when it goes waited for, its error dropped.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "src/pipeline/spill_thread.h"
#include "src/report/sort_report.h"

namespace {

using gsort::SortReport;
using gsort::SpillThread;

double phase(const SortReport& report, const std::string& name) {
  for (const auto& p : report.phases) {
    if (p.first == name) return p.second;
  }
  return -1;
}

// A gate the run's thread waits at until the test opens it.
class Gate {
 public:
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void pass() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

TEST(SpillThread, GathersThenFinishesOnItsOwnThreadAndReportsBoth) {
  SpillThread<int> spill;
  SortReport report;
  EXPECT_FALSE(spill.busy());
  Gate gate;
  std::thread::id gathered_on, finished_on;
  std::atomic<bool> gathered{false};
  spill.launch(
      [&] {
        gate.pass();
        gathered_on = std::this_thread::get_id();
        gathered = true;
      },
      [&] {
        EXPECT_TRUE(gathered.load()) << "finish ran before the gather";
        finished_on = std::this_thread::get_id();
        return 42;
      });
  EXPECT_TRUE(spill.busy());
  EXPECT_FALSE(spill.ended()) << "ended before the gate opened";
  gate.open();
  EXPECT_EQ(spill.finish(report), 42);
  EXPECT_FALSE(spill.busy());
  EXPECT_NE(gathered_on, std::this_thread::get_id());
  EXPECT_EQ(gathered_on, finished_on);
  ASSERT_EQ(report.timeline.size(), 1u);
  EXPECT_EQ(report.timeline[0].phase, "write runs");
  EXPECT_EQ(report.timeline[0].thread, "spill");
  EXPECT_LE(report.timeline[0].start_s, report.timeline[0].end_s);
  EXPECT_GE(phase(report, "write runs: gathering into the streams"), 0);
  EXPECT_GE(phase(report, "write runs: the streams finishing"), 0);
}

TEST(SpillThread, AnErrorOfEitherStepIsRethrownAndTheThreadIsFreeAgain) {
  SpillThread<int> spill;
  SortReport report;
  spill.launch([] { throw std::runtime_error("gather failed"); }, [] { return 1; });
  EXPECT_THROW(spill.finish(report), std::runtime_error);
  EXPECT_FALSE(spill.busy());
  spill.launch([] {}, []() -> int { throw std::runtime_error("finish failed"); });
  EXPECT_THROW(spill.finish(report), std::runtime_error);
  EXPECT_FALSE(spill.busy());
  spill.launch([] {}, [] { return 7; });
  EXPECT_EQ(spill.finish(report), 7);
}

TEST(SpillThread, ARunInFlightIsWaitedForWhenItGoesAndItsErrorDropped) {
  std::atomic<bool> finished{false};
  Gate gate;
  std::thread opener;
  {
    SpillThread<int> spill;
    spill.launch([&] { gate.pass(); },
                 [&]() -> int {
                   finished = true;
                   throw std::runtime_error("dropped");
                 });
    // Opened from another thread, as the destructor may already wait.
    opener = std::thread([&] { gate.open(); });
  }  // the destructor waits for the run, which the opener lets end
  EXPECT_TRUE(finished.load()) << "the run was not waited for";
  opener.join();
}

}  // namespace
