// Makes the pages of a mapped output present (MADV_POPULATE_WRITE) on the
// pool's threads, in order, from when the output's size is known: while the
// input is read and sorted, so that the threads that later fill the
// mapping find its pages there instead of taking a page fault for each of
// them (the faults, taken by many threads while they copy, ran at a third
// of the rate of one write() stream; made in bulk ahead, they are nearly
// free: docs/benchmarks.md, "The mapped output").
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "src/core/thread_pool.h"

namespace gsort {

class PopulateAhead {
 public:
  // lead: how far ahead of what the writers asked for (wait_until) pages
  // are made present; 0: all of them, at once. A budget bounds the dirty
  // pages it makes (a memory-limited cgroup would write them back and read
  // them in again before the writers come).
  // growing: only [0, extend()'s end) may be made present, until
  // end_growth() gives the final size (bytes is the most it may be).
  PopulateAhead(uint8_t* base, uint64_t bytes, ThreadPool& pool, uint64_t lead = 0, bool growing = false);
  ~PopulateAhead();  // stops after the step under way; what is present stays
  PopulateAhead(const PopulateAhead&) = delete;
  PopulateAhead& operator=(const PopulateAhead&) = delete;

  // Blocks until [0, end) is present (or populating stopped: a kernel
  // without MADV_POPULATE_WRITE, where pages fault in as written); the
  // writers are at `end` now, for the lead.
  void wait_until(uint64_t end);
  // Seconds the writers spent in wait_until so far (for -v).
  double waited_s() const;
  // Growing: [0, end) is reserved now and may be made present.
  void extend(uint64_t end);
  // Growing: the range ends at `bytes` (no more than its most).
  void end_growth(uint64_t bytes);

 private:
  void run();
  // Of [at, ...), what may be made present now (0: wait); under mutex_.
  uint64_t available(uint64_t at, uint64_t step) const;

  uint8_t* const base_;
  uint64_t bytes_;  // the end; while growing, the most it may be
  ThreadPool& pool_;
  const uint64_t lead_;
  mutable std::mutex mutex_;
  double waited_s_ = 0;  // under mutex_
  std::condition_variable advanced_;  // done_, over_ or (for run) asked_ and stop_
  uint64_t done_ = 0;  // [0, done_) is present
  uint64_t asked_ = 0;  // the furthest end a writer waited for
  uint64_t reserved_;  // [0, reserved_) may be made present
  bool growing_;
  bool over_ = false;  // every piece done, or populating failed
  bool stop_ = false;  // the destructor asks
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
