// What the final merge's ranges read of the runs, freed on a thread of its
// own while the merge goes on (RunView::release_segment_from). The ranges are
// merged from the last to the first, so what every range above some cut
// has read is each run's tail, which goes by cutting the run's files
// short: their dirty pages are dropped unwritten, where a punched hole
// writes them out first (ext4) and a freed run's pages would otherwise
// hold the output's writes back at the kernel's dirty limit. The merging
// threads never wait for it; what it has not reached when the merge ends
// goes with the runs, removed after the commit. A cut is one file after
// another (each run's segment files), and the kernel's freeing of their
// pages (or its wait for those already being written back) takes seconds
// at the end of a large merge: the cut under way then is finished by the
// pool's threads too.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "io/run/run_view.h"
#include "src/core/thread_pool.h"
#include "src/merge/range_split.h"

namespace gsort {

class BackgroundRelease {
 public:
  // pool: the threads that help finish the cut under way at stop() (null:
  // none; they must be idle then).
  BackgroundRelease(const std::vector<const RunView*>& runs, const MergeRanges& ranges, ThreadPool* pool = nullptr);
  ~BackgroundRelease();  // stops, if not yet (without the pool's help)
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;

  // Range p is merged: once every range above it is too, what they read
  // may go.
  void merged(size_t p);
  // Waits for the cut under way, which the pool's threads help finish,
  // and stops (with `drain`: cuts to what is merged first, on this thread
  // alone); returns the seconds the thread spent cutting.
  double stop(bool drain = false);
  // Whether a cut is under way, and the files the pool's threads cut at
  // stop() (tests).
  bool cutting() const;
  size_t files_cut_by_the_pool() const { return helped_.load(); }
  // The first range of the merged tail (ranges() while none is): what the
  // runs keep, tests.
  size_t frontier() const;

 private:
  void loop();
  // Cuts the files of the cut under way (to `frontier`) that no thread has
  // taken yet; returns how many this call cut.
  size_t cut_files(size_t frontier);
  void finish(bool drain, bool help);

  const std::vector<const RunView*>& runs_;
  const MergeRanges& ranges_;
  ThreadPool* pool_;
  std::vector<std::pair<size_t, size_t>> files_;  // (run, segment), every run's segment files
  std::atomic<size_t> next_file_{0};  // of the cut under way
  std::atomic<size_t> helped_{0};
  bool cutting_ = false;              // a cut is under way (to cut_)
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
