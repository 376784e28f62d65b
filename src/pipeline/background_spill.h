// A sorted chunk written as a run on a thread of its own, so that the next
// chunk is read and sorted while it is written. The run's files are made
// by start(), on the calling thread; the chunk's records and order must
// stay untouched until finish() returns. One spill at a time.
//
//   BackgroundSpill spill(runs, pool, streams, report);
//   spill.start(records, order, count);   ... sort the next chunk ...
//   runs.push(spill.finish());
#pragma once

#include <cstdint>
#include <future>
#include <memory>

#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/run_output.h"
#include "src/merge/temp_runs.h"
#include "src/report/sort_report.h"

namespace gsort {

class BackgroundSpill {
 public:
  // Runs of up to `streams` segments in `runs`, gathered by `pool`; each
  // run's figures and span go to `report`.
  BackgroundSpill(TempRuns& runs, ThreadPool& pool, unsigned streams, SortReport& report)
      : runs_(runs), pool_(pool), streams_(streams), report_(report) {}
  // Waits for a spill still in flight (after an error elsewhere) and drops
  // its own error: the first error is the one reported.
  ~BackgroundSpill();
  BackgroundSpill(const BackgroundSpill&) = delete;
  BackgroundSpill& operator=(const BackgroundSpill&) = delete;

  // Whether a spill was started and not yet finished.
  bool busy() const { return done_.valid(); }
  // Whether the spill in flight has ended (never waits).
  bool ended() const;
  // Starts writing records[order[0..count)] as a run.
  void start(const uint8_t* records, const uint32_t* order, uint64_t count);
  // Waits for the spill; its figures and its span ("write runs" on the
  // "spill" thread) go to the report. Rethrows its error.
  PendingSource finish();

 private:
  struct Ended {
    RunFigures figures;
    double at_s = 0;  // process_seconds() when the run was complete
  };
  TempRuns& runs_;
  ThreadPool& pool_;
  const unsigned streams_;
  SortReport& report_;
  PendingSource run_;
  std::unique_ptr<RunOutput> out_;
  std::future<Ended> done_;  // declared last: a spill in flight ends before the rest goes
  double started_s_ = 0;
};

}  // namespace gsort
