// The progress line on standard error: the phase, the bytes done of the
// total where it is known, the throughput and the time left, redrawn in
// place with \r a few times a second by a small thread (its own clock, not
// pool work), and cleared at the end and before any other message
// (print_diagnostic in src/core/log.h calls the clear it registers). The
// pipeline only advances counters it owns anyway (a relaxed atomic add per
// block); the thread reads them.
//
//   ProgressMeter meter(ProgressMeter::wanted(config));
//   meter.phase("reading", total_bytes, &bytes_read);   // bytes_read: atomic, advanced by the reader
//   ...                                                  // destructor clears the line
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "src/config/sort_config.h"
#include "src/core/stopwatch.h"

namespace gsort {

class ProgressMeter {
 public:
  // --progress: always; --no-progress: never. Else (kAuto) when stderr is a
  // terminal that gsort neither reads (lines typed there) nor writes its
  // output to, as sort draws nothing there; -C: never unless --progress.
  static bool wanted(const SortConfig& config);

  explicit ProgressMeter(bool show);
  ~ProgressMeter();  // stops the thread and clears the line
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  // Starts a phase. name: a string that outlives the phase. total: bytes of
  // work in it, 0 when unknown. done: the counter that measures the work
  // (its value now is the phase's zero), or null for no measure.
  void phase(const std::string& name, uint64_t total, const std::atomic<uint64_t>* done);
  // Stops and clears the line now.
  void stop();

  // The line as it would be drawn now (for tests): empty before the first
  // phase.
  std::string render();

 private:
  void loop();
  void draw_locked(const std::string& line);
  void clear_locked();

  bool show_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  // The phase, under mutex_.
  std::string name_;
  uint64_t total_ = 0;
  const std::atomic<uint64_t>* done_ = nullptr;
  uint64_t base_ = 0;
  Stopwatch phase_time_;
  Stopwatch since_start_;
  size_t drawn_ = 0;  // width of the line on screen, 0 when none

};

// "1.5 GiB", "320 KiB", "12 B".
std::string format_bytes(double bytes);

}  // namespace gsort
