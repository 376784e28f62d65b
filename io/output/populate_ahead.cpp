#include "io/output/populate_ahead.h"

#include <algorithm>
#include <vector>

#include "src/core/host_buffer.h"

namespace gsort {
namespace {

// Populated per step: a step's 64 MiB pieces (populate_on_pool) are spread
// over the pool's threads, and the writers wait for steps, in order.
constexpr uint64_t kPieceBytes = uint64_t{64} << 20;

}  // namespace

PopulateAhead::PopulateAhead(uint8_t* base, uint64_t bytes, ThreadPool& pool, uint64_t lead)
    : base_(base), bytes_(bytes), pool_(pool), lead_(lead), thread_([this] { run(); }) {}

PopulateAhead::~PopulateAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  advanced_.notify_all();
  thread_.join();
}

void PopulateAhead::wait_until(uint64_t end) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (end > asked_) {
    asked_ = end;
    advanced_.notify_all();
  }
  advanced_.wait(lock, [&] { return over_ || done_ >= std::min(end, bytes_); });
}

void PopulateAhead::run() {
  const uint64_t step = std::max<uint64_t>(4, pool_.size()) * kPieceBytes;
  bool ok = true;
  for (uint64_t at = 0; at < bytes_ && ok; at += step) {
    const uint64_t n = std::min(step, bytes_ - at);
    if (lead_ != 0) {  // no further than lead_ past what the writers asked for
      std::unique_lock<std::mutex> lock(mutex_);
      advanced_.wait(lock, [&] { return stop_ || at < asked_ + lead_; });
      if (stop_) break;
    }
    try {
      ok = populate_on_pool(base_ + at, static_cast<size_t>(n), PopulateFor::kWrite, pool_);
    } catch (...) {
      ok = false;  // the writers fault the pages in themselves
    }
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = at + n;
    advanced_.notify_all();
    if (stop_) break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  over_ = true;
  advanced_.notify_all();
}

}  // namespace gsort
