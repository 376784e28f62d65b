// Joins a thread on every way out of a scope, so that an exception cannot
// leave it running over the scope's locals (or reach std::thread's
// destructor, which terminates). A scope that needs the thread's results
// calls join() itself; leaving without it (an exception) first runs
// `on_unwind`, where given, to make the thread stop early.
#pragma once

#include <functional>
#include <thread>
#include <utility>

namespace gsort {

class ScopedJoin {
 public:
  explicit ScopedJoin(std::thread& thread, std::function<void()> on_unwind = nullptr)
      : thread_(thread), on_unwind_(std::move(on_unwind)) {}
  ~ScopedJoin() {
    if (!thread_.joinable()) return;
    if (on_unwind_) on_unwind_();
    thread_.join();
  }
  ScopedJoin(const ScopedJoin&) = delete;
  ScopedJoin& operator=(const ScopedJoin&) = delete;

  // Waits for the thread now (a no-op where it never started or was joined).
  void join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread& thread_;
  std::function<void()> on_unwind_;
};

}  // namespace gsort
