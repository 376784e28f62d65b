#include "io/output/populate_ahead.h"

#include <algorithm>

#include "src/core/host_buffer.h"

namespace gsort {
namespace {

// Populated per step: a step's 64 MiB pieces (populate_on_pool) are spread
// over the pool's threads, and the writers wait for steps, in order.
constexpr uint64_t kPieceBytes = uint64_t{64} << 20;

}  // namespace

PopulateAhead::PopulateAhead(uint8_t* base, uint64_t bytes, ThreadPool& pool)
    : base_(base), pool_(pool), limit_(bytes), thread_([this] { run(); }) {}

PopulateAhead::~PopulateAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PopulateAhead::extend(uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = std::max(limit_, bytes);
  }
  changed_.notify_all();
}

void PopulateAhead::wait_until(uint64_t end) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return failed_ || done_ >= std::min(end, limit_); });
}

void PopulateAhead::run() {
  const uint64_t step = std::max<uint64_t>(4, pool_.size()) * kPieceBytes;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || done_ < limit_; });
    if (stop_) return;
    const uint64_t at = done_, n = std::min(step, limit_ - done_);
    lock.unlock();
    bool ok = false;
    try {
      ok = populate_on_pool(base_ + at, static_cast<size_t>(n), PopulateFor::kWrite, pool_);
    } catch (...) {
    }
    lock.lock();
    done_ = at + n;
    if (!ok) {
      failed_ = true;  // the writers fault the pages in themselves
      changed_.notify_all();
      return;
    }
    changed_.notify_all();
  }
}

}  // namespace gsort
