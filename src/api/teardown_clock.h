// -v's times outside a run's own clock: when main() began after the
// process started (say_when_main_began), and, as the last line, how long
// freeing the run's backend, buffers and threads took after the total (a
// GPU's teardown is most of it). A TeardownClock declared before what it
// times reports once that is gone; nothing where the run failed or
// start() was not called.
#pragma once

#include "src/core/log.h"
#include "src/core/process_clock.h"

namespace gsort {

inline void say_when_main_began(const Log& log) {
  const double before_main = seconds_before_main();
  if (before_main >= 0) log.info("clock: main() began " + seconds_text(before_main) + " after the process started");
}

class TeardownClock {
 public:
  explicit TeardownClock(const Log& log) : log_(log) {}
  ~TeardownClock() {
    if (from_ >= 0) log_.info("teardown: " + seconds_text(process_seconds() - from_) + " after the total");
  }
  TeardownClock(const TeardownClock&) = delete;
  TeardownClock& operator=(const TeardownClock&) = delete;
  void start() {
    if (log_.verbose()) from_ = process_seconds();
  }

 private:
  const Log& log_;
  double from_ = -1;
};

}  // namespace gsort
