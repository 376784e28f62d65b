#include "src/core/thread_pool.h"

#include <algorithm>

namespace gsort {

ThreadPool::ThreadPool(unsigned threads) {
  try {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (...) {
    // A thread that cannot start (no memory for its stack): the ones that
    // did are stopped before the exception leaves, since no destructor runs.
    stop_workers();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop_workers(); }

void ThreadPool::stop_workers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void ThreadPool::run_next(Loop& loop, std::unique_lock<std::mutex>& lock) {
  const size_t i = loop.next++;
  if (loop.next == loop.count) open_loops_.erase(std::find(open_loops_.begin(), open_loops_.end(), &loop));
  lock.unlock();
  std::exception_ptr err;
  try {
    (*loop.task)(i);
  } catch (...) {
    err = std::current_exception();
  }
  lock.lock();
  if (err && !loop.error) loop.error = err;
  // After this, the caller may return and `loop` go away.
  if (++loop.finished == loop.count) work_done_.notify_all();
}

void ThreadPool::worker_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return stopping_ || !open_loops_.empty(); });
    if (stopping_) return;
    run_next(*open_loops_.front(), lock);
  }
}

void ThreadPool::parallel_for(size_t tasks, const std::function<void(size_t)>& task, bool urgent) {
  if (tasks == 0) return;
  if (workers_.empty() || tasks == 1) {
    for (size_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  Loop loop(&task, tasks, urgent);
  std::unique_lock<std::mutex> lock(mutex_);
  // After the urgent loops already open (all of them, for an urgent one).
  const auto after = urgent ? std::find_if(open_loops_.begin(), open_loops_.end(), [](const Loop* l) { return !l->urgent; })
                            : open_loops_.end();
  open_loops_.insert(after, &loop);
  work_ready_.notify_all();
  while (loop.next < loop.count) run_next(loop, lock);
  work_done_.wait(lock, [&] { return loop.finished == loop.count; });
  const std::exception_ptr err = loop.error;
  lock.unlock();
  if (err) std::rethrow_exception(err);
}

}  // namespace gsort
