// What the final merge's ranges read of the runs, freed (RunView::release)
// on a thread of its own as each range is done, not by the merging threads:
// freeing pages still being written back waits for the disk, and the
// merge need not wait with it. Freed early, the runs' dirty pages do not
// hold the output's writes back at the kernel's dirty limit. What is
// still queued when the merge ends is left: the runs go whole after the
// commit.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "io/run/run_view.h"
#include "src/merge/range_split.h"

namespace gsort {

class BackgroundRelease {
 public:
  BackgroundRelease(const std::vector<const RunView*>& runs, const MergeRanges& ranges);
  ~BackgroundRelease();  // stop(), if not yet
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;

  // Range p is merged: what it alone read may go.
  void merged(size_t p);
  // Drops what is queued (with `drain`: frees it first), waits for the
  // release under way; returns the seconds the thread spent freeing.
  double stop(bool drain = false);

 private:
  void loop();

  const std::vector<const RunView*>& runs_;
  const MergeRanges& ranges_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<size_t> queued_;
  bool stopping_ = false;
  bool draining_ = false;
  double busy_s_ = 0;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
