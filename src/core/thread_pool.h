// A fixed set of worker threads for data-parallel loops. parallel_for is
// the only entry point: it blocks until every task has run and rethrows the
// first exception a task threw.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gsort {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Runs task(i) for i in [0, tasks), on the workers and the calling thread.
  // Not reentrant: a task must not call parallel_for on the same pool.
  void parallel_for(size_t tasks, const std::function<void(size_t)>& task);

 private:
  void worker_loop(unsigned long seen);
  void run_tasks(std::unique_lock<std::mutex>& lock);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  const std::function<void(size_t)>* task_ = nullptr;
  size_t task_count_ = 0;
  size_t next_task_ = 0;
  size_t finished_tasks_ = 0;
  unsigned long generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

// Splits [0, n) into `parts` nearly equal ranges; returns the start of range p.
inline size_t split_point(size_t n, size_t parts, size_t p) {
  // n / parts * p + the remainder's share, without overflowing n * p.
  return n / parts * p + (n % parts) * p / parts;
}

}  // namespace gsort
