// A fixed set of worker threads for data-parallel loops, created once in
// main and passed down. parallel_for is the only entry point: it blocks
// until every task has run and rethrows the first exception a task threw.
// Several threads may run loops at once (the merge prepares a batch while
// it writes the last one, a run writer compresses meanwhile, the in-memory
// sort's output is gathered while the rest is sorted): their tasks share the
// workers, urgent loops first, then oldest loop first.
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

  // How many tasks to split an even loop into: a few per thread, so that a
  // thread slowed down by others still leaves the rest busy to the end.
  size_t balanced_task_count() const { return size_t{size()} * 4; }

  // Runs task(i) for i in [0, tasks), on the workers and the calling thread.
  // An urgent loop (one that a writer waits on) gets each worker as soon as
  // it is done with its current task, ahead of the loops already open.
  void parallel_for(size_t tasks, const std::function<void(size_t)>& task, bool urgent = false);

 private:
  // One parallel_for call; lives on its caller's stack.
  struct Loop {
    Loop(const std::function<void(size_t)>* t, size_t n, bool u) : task(t), count(n), urgent(u) {}
    const std::function<void(size_t)>* task;
    size_t count;
    bool urgent;
    size_t next = 0;      // the next task to hand out
    size_t finished = 0;  // tasks that have returned
    std::exception_ptr error;
  };

  void worker_loop();
  void stop_workers();
  // Runs the next task of `loop`; `lock` is held on entry and on return.
  void run_next(Loop& loop, std::unique_lock<std::mutex>& lock);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::vector<Loop*> open_loops_;  // loops with tasks not yet handed out: urgent ones, then the rest, each oldest first
  bool stopping_ = false;
};

// Splits [0, n) into `parts` nearly equal ranges; returns the start of range p.
inline size_t split_point(size_t n, size_t parts, size_t p) {
  // n / parts * p + the remainder's share, without overflowing n * p.
  return n / parts * p + (n % parts) * p / parts;
}

}  // namespace gsort
