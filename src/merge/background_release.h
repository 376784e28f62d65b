// What the final merge's ranges read of the runs, freed on a thread of its
// own while the merge goes on (RunView::release_from). The ranges are
// merged from the last to the first, so what every range above some cut
// has read is each run's tail, which goes by cutting the run's files
// short: their dirty pages are dropped unwritten, where a punched hole
// writes them out first (ext4) and a freed run's pages would otherwise
// hold the output's writes back at the kernel's dirty limit. The merging
// threads never wait for it; what it has not reached when the merge ends
// goes with the runs, removed after the commit.
#pragma once

#include <condition_variable>
#include <cstddef>
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

  // Range p is merged: once every range above it is too, what they read
  // may go.
  void merged(size_t p);
  // Waits for the cut under way and stops (with `drain`: cuts to what is
  // merged first); returns the seconds the thread spent cutting.
  double stop(bool drain = false);
  // The first range of the merged tail (ranges() while none is): what the
  // runs keep, tests.
  size_t frontier() const;

 private:
  void loop();
  void cut_to(size_t frontier);

  const std::vector<const RunView*>& runs_;
  const MergeRanges& ranges_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<bool> merged_;
  size_t frontier_;  // ranges [frontier_, end) are merged
  size_t cut_ = 0;   // the runs are cut at range cut_'s start (ranges() before any cut)
  bool stopping_ = false;
  bool draining_ = false;
  double busy_s_ = 0;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
