// A sorted chunk of records written as a run on a thread of its own
// (spill_thread.h), so that the next chunk is read and sorted while it is
// written. The run's files are made by start(), on the calling thread; the
// chunk's records and order must stay untouched until finish() returns.
// One spill at a time.
//
//   BackgroundSpill spill(runs, pool, streams, report);
//   spill.start(records, order, count);   ... sort the next chunk ...
//   runs.push(spill.finish());
#pragma once

#include <cstdint>
#include <memory>

#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/run_output.h"
#include "src/merge/temp_runs.h"
#include "src/pipeline/spill_thread.h"
#include "src/report/sort_report.h"

namespace gsort {

class BackgroundSpill {
 public:
  // Runs of up to `streams` segments in `runs`, gathered by `pool`; each
  // run's figures and span go to `report`.
  BackgroundSpill(TempRuns& runs, ThreadPool& pool, unsigned streams, SortReport& report)
      : runs_(runs), pool_(pool), streams_(streams), report_(report) {}
  BackgroundSpill(const BackgroundSpill&) = delete;
  BackgroundSpill& operator=(const BackgroundSpill&) = delete;

  // Whether a spill was started and not yet finished.
  bool busy() const { return thread_.busy(); }
  // Whether the spill in flight has ended (never waits).
  bool ended() const { return thread_.ended(); }
  // Starts writing records[order[0..count)] as a run.
  void start(const uint8_t* records, const uint32_t* order, uint64_t count);
  // Waits for the spill; its figures and its span ("write runs" on the
  // "spill" thread) go to the report. Rethrows its error.
  PendingSource finish();

 private:
  TempRuns& runs_;
  ThreadPool& pool_;
  const unsigned streams_;
  SortReport& report_;
  PendingSource run_;
  std::unique_ptr<RunOutput> out_;
  SpillThread<RunFigures> thread_;  // last: a spill in flight ends before the rest goes
};

}  // namespace gsort
