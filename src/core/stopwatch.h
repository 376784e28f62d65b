// Wall time since a start, in seconds: the one clock for phase timings.
//
//   Stopwatch t;  ...work...;  report.add_phase("sort", t.seconds());
#pragma once

#include <chrono>

namespace gsort {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void restart() { start_ = std::chrono::steady_clock::now(); }
  // seconds(), then restart(): the time of one step in a sequence.
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gsort
