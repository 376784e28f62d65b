#include "src/core/thread_pool.h"

namespace gsort {

ThreadPool::ThreadPool(unsigned threads) {
  // Workers start from generation 0, not from whatever generation_ holds
  // when their thread gets going: work posted before that must not be missed.
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(0); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_tasks(std::unique_lock<std::mutex>& lock) {
  // Takes tasks one at a time until none are left; `lock` is held on entry
  // and on return, released while a task runs.
  while (next_task_ < task_count_) {
    const size_t i = next_task_++;
    const auto* task = task_;
    lock.unlock();
    std::exception_ptr err;
    try {
      (*task)(i);
    } catch (...) {
      err = std::current_exception();
    }
    lock.lock();
    if (err && !error_) error_ = err;
    if (++finished_tasks_ == task_count_) work_done_.notify_all();
  }
}

void ThreadPool::worker_loop(unsigned long seen) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    run_tasks(lock);
  }
}

void ThreadPool::parallel_for(size_t tasks, const std::function<void(size_t)>& task) {
  if (tasks == 0) return;
  if (workers_.empty() || tasks == 1) {
    for (size_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  task_ = &task;
  task_count_ = tasks;
  next_task_ = 0;
  finished_tasks_ = 0;
  error_ = nullptr;
  ++generation_;
  work_ready_.notify_all();
  run_tasks(lock);
  work_done_.wait(lock, [&] { return finished_tasks_ == task_count_; });
  task_ = nullptr;
  std::exception_ptr err = error_;
  error_ = nullptr;
  lock.unlock();
  if (err) std::rethrow_exception(err);
}

}  // namespace gsort
