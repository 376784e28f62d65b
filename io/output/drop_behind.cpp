#include "io/output/drop_behind.h"

#include "src/core/host_buffer.h"

namespace gsort {

DropBehind::DropBehind() : thread_([this] { run(); }) {}

DropBehind::~DropBehind() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void DropBehind::drop(uint8_t* p, uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stretches_.emplace_back(p, bytes);
  }
  changed_.notify_all();
}

void DropBehind::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return stretches_.empty() && !busy_; });
}

void DropBehind::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !stretches_.empty() || stopping_; });
    if (stretches_.empty()) return;  // stopping, nothing left
    const std::pair<uint8_t*, uint64_t> s = stretches_.front();
    stretches_.pop_front();
    busy_ = true;
    lock.unlock();
    drop_written_pages(s.first, static_cast<size_t>(s.second));
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace gsort
