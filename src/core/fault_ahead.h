// Faults in the pages of a buffer a window ahead of the one thread that
// fills it in order (the reader of a pipe), on a thread of its own, so that
// the reader's copies land in pages already there instead of stopping to
// take each page fault (and zero its page) itself. A stream's chunk buffer
// cannot be faulted in up front: its input may end after a few bytes.
//
//   FaultAhead ahead(buffer, bytes);
//   while (...) { fill up to `filled`;  ahead.filled(filled); }
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>

namespace gsort {

class FaultAhead {
 public:
  static constexpr size_t kWindowBytes = size_t{256} << 20;  // how far ahead of the reader
  static constexpr size_t kStepBytes = size_t{16} << 20;     // faulted in per call

  FaultAhead(uint8_t* buffer, size_t bytes);
  ~FaultAhead();  // stops the thread; what it faulted in stays
  FaultAhead(const FaultAhead&) = delete;
  FaultAhead& operator=(const FaultAhead&) = delete;

  // The reader has filled [0, filled): the window moves on.
  void filled(size_t filled);

  // Blocks until the window ahead of the last `filled` is faulted in (what
  // a test checks; the reader itself never waits for the thread).
  void wait_for_window();

 private:
  void run();
  size_t window_end() const;  // with mutex_ held

  uint8_t* const buffer_;
  const size_t bytes_;
  std::mutex mutex_;
  std::condition_variable moved_;     // the reader moved, or stop
  std::condition_variable advanced_;  // the thread faulted in more
  size_t filled_ = 0;
  size_t done_ = 0;  // [0, done_) is faulted in or filled by the reader
  bool stop_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
