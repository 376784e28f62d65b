// A sorted chunk written as a run on a thread of its own, so that the next
// chunk is read and sorted while it is written. The run's files are made
// by start(), on the calling thread; the chunk's records and order must
// stay untouched until finish() returns. One spill at a time.
//
//   BackgroundSpill spill(job);
//   spill.start(records, order, count);   ... sort the next chunk ...
//   runs.push(spill.finish());
#pragma once

#include <cstdint>
#include <future>
#include <memory>

#include "src/pipeline/run_output.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

class BackgroundSpill {
 public:
  explicit BackgroundSpill(SortJob& job) : job_(job) {}
  // Waits for a spill still in flight (after an error elsewhere) and drops
  // its own error: the first error is the one reported.
  ~BackgroundSpill();
  BackgroundSpill(const BackgroundSpill&) = delete;
  BackgroundSpill& operator=(const BackgroundSpill&) = delete;

  // Whether a spill was started and not yet finished.
  bool busy() const { return done_.valid(); }
  // Whether the spill in flight has ended (never waits).
  bool ended() const;
  // Starts writing records[order[0..count)] as a run of up to the plan's
  // spill streams.
  void start(const uint8_t* records, const uint32_t* order, uint64_t count);
  // Waits for the spill; its figures and its span ("write runs" on the
  // "spill" thread) go to the job's report. Rethrows its error.
  PendingSource finish();

 private:
  struct Ended {
    RunFigures figures;
    double at_s = 0;  // process_seconds() when the run was complete
  };
  SortJob& job_;
  PendingSource run_;
  std::unique_ptr<RunOutput> out_;
  std::future<Ended> done_;  // declared last: a spill in flight ends before the rest goes
  double started_s_ = 0;
};

}  // namespace gsort
