// A run written on a thread of its own while the next chunk is read and
// sorted, whatever the unit: the gather (the sorted chunk's records or
// lines into the run's blocks), then the finish (what the writers still
// hold, and the run), each timed. The chunk must stay untouched until
// finish() returns. One run at a time. The records' BackgroundSpill and
// the lines' spill (src/lines/form_runs.cpp) each hold one, declared after
// what the run's thread uses: a run in flight ends before that goes.
#pragma once

#include <chrono>
#include <future>
#include <utility>

#include "src/core/process_clock.h"
#include "src/core/stopwatch.h"
#include "src/report/sort_report.h"

namespace gsort {

template <typename Figures>
class SpillThread {
 public:
  SpillThread() = default;
  // Waits for a run still in flight (after an error elsewhere) and drops
  // its error: the first error is the one reported.
  ~SpillThread() {
    if (!done_.valid()) return;
    try {
      done_.get();
    } catch (...) {
    }
  }
  SpillThread(const SpillThread&) = delete;
  SpillThread& operator=(const SpillThread&) = delete;

  // Whether a run was started and not yet finished.
  bool busy() const { return done_.valid(); }
  // Whether the run in flight has ended (never waits).
  bool ended() const { return busy() && done_.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }

  // Starts gather(), then finish() (which returns the run's Figures), on a
  // thread of its own.
  template <typename Gather, typename Finish>
  void launch(Gather gather, Finish finish) {
    started_s_ = process_seconds();
    Steps* steps = &steps_;
    done_ = std::async(std::launch::async, [gather, finish, steps] {
      Stopwatch t;
      gather();
      steps->gather_s = t.lap();
      Figures figures = finish();
      steps->finish_s = t.lap();
      steps->ended_s = process_seconds();
      return figures;
    });
  }

  // Waits for the run and returns its figures (rethrowing its error); its
  // span ("write runs" on the "spill" thread) and steps go to `report`.
  Figures finish(SortReport& report) {
    Figures figures = done_.get();  // leaves done_ invalid, also when it throws
    report.add_span(PhaseSpan{"write runs", "spill", started_s_, steps_.ended_s});
    report.add_duration("write runs: gathering into the streams", steps_.gather_s);
    report.add_duration("write runs: the streams finishing", steps_.finish_s);
    return figures;
  }

 private:
  struct Steps {
    double gather_s = 0, finish_s = 0, ended_s = 0;  // written by the run's thread
  };
  double started_s_ = 0;
  Steps steps_;
  std::future<Figures> done_;  // last: a run in flight ends before steps_ goes
};

}  // namespace gsort
