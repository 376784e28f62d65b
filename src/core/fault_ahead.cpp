#include "src/core/fault_ahead.h"

#include <algorithm>

#include "src/core/host_buffer.h"

namespace gsort {

FaultAhead::FaultAhead(uint8_t* buffer, size_t bytes)
    : buffer_(buffer), bytes_(bytes), thread_([this] { run(); }) {}

FaultAhead::~FaultAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  moved_.notify_one();
  thread_.join();
}

void FaultAhead::filled(size_t filled) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    filled_ = filled;
  }
  moved_.notify_one();
}

void FaultAhead::wait_for_window() {
  std::unique_lock<std::mutex> lock(mutex_);
  advanced_.wait(lock, [&] { return done_ >= window_end(); });
}

size_t FaultAhead::window_end() const { return std::min(bytes_, filled_ + kWindowBytes); }

void FaultAhead::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    moved_.wait(lock, [&] { return stop_ || window_end() > done_; });
    if (stop_) return;
    done_ = std::max(done_, filled_);
    if (done_ < window_end()) {
      const size_t from = done_;
      const size_t n = std::min(kStepBytes, window_end() - from);
      lock.unlock();
      populate_for_write(buffer_ + from, n);
      lock.lock();
      done_ = std::max(done_, from + n);
    }
    advanced_.notify_all();
  }
}

}  // namespace gsort
