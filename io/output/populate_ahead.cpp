#include "io/output/populate_ahead.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "src/core/host_buffer.h"

namespace gsort {
namespace {

// Populated per step: a step's 64 MiB pieces (populate_on_pool) are spread
// over the pool's threads, and the writers wait for steps, in order.
constexpr uint64_t kPieceBytes = uint64_t{64} << 20;
// A growing range is made present in whole multiples of this (page-aligned
// for any page size), until its end is known.
constexpr uint64_t kGrowthAlign = uint64_t{2} << 20;

}  // namespace

PopulateAhead::PopulateAhead(uint8_t* base, uint64_t bytes, ThreadPool& pool, uint64_t lead, bool growing)
    : base_(base),
      bytes_(bytes),
      pool_(pool),
      lead_(lead),
      reserved_(growing ? 0 : bytes),
      growing_(growing),
      thread_([this] { run(); }) {}

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
  const auto ready = [&] { return over_ || done_ >= std::min(end, bytes_); };
  if (ready()) return;
  const auto began = std::chrono::steady_clock::now();
  advanced_.wait(lock, ready);
  waited_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

double PopulateAhead::waited_s() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waited_s_;
}

void PopulateAhead::extend(uint64_t end) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    reserved_ = std::max(reserved_, std::min(end, bytes_));
  }
  advanced_.notify_all();
}

void PopulateAhead::end_growth(uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bytes_ = std::min(bytes, bytes_);
    reserved_ = bytes_;
    growing_ = false;
  }
  advanced_.notify_all();
}

uint64_t PopulateAhead::available(uint64_t at, uint64_t step) const {
  if (lead_ != 0 && at >= asked_ + lead_) return 0;  // no further than lead_ past what the writers asked for
  const uint64_t end = std::min(reserved_, at + step);
  if (end <= at) return 0;
  if (!growing_) return end - at;
  return (end - at) / kGrowthAlign * kGrowthAlign;  // whole pages: the end moves on
}

void PopulateAhead::run() {
  const uint64_t step = std::max<uint64_t>(4, pool_.size()) * kPieceBytes;
  bool ok = true;
  uint64_t at = 0;
  while (ok) {
    uint64_t n = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      advanced_.wait(lock, [&] { return stop_ || at >= bytes_ || available(at, step) != 0; });
      if (stop_ || at >= bytes_) break;
      n = available(at, step);
    }
    try {
      ok = populate_on_pool(base_ + at, static_cast<size_t>(n), PopulateFor::kWrite, pool_);
    } catch (...) {
      ok = false;  // the writers fault the pages in themselves
    }
    std::lock_guard<std::mutex> lock(mutex_);
    at += n;
    done_ = at;
    advanced_.notify_all();
    if (stop_) break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  over_ = true;
  advanced_.notify_all();
}

}  // namespace gsort
