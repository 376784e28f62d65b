#include "src/core/staged_stream.h"

#include <algorithm>
#include <cstring>

namespace gsort {

StagedStream::StagedStream(uint64_t unit, uint64_t stage_bytes, uint64_t arrival_bytes)
    : stage_bytes_(std::max<uint64_t>(stage_bytes / unit, 1) * unit), arrival_bytes_(arrival_bytes) {
  for (HostBuffer& s : stages_) {
    s = HostBuffer::allocate_pageable(stage_bytes_);
    std::memset(s.data(), 0, stage_bytes_);  // present before the first read
  }
  for (int c = 0; c < kCopiers; ++c) copiers_.emplace_back([this] { copier(); });
}

StagedStream::~StagedStream() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  queued_.notify_all();
  for (std::thread& t : copiers_) t.join();
}

void StagedStream::copier() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    queued_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopped, nothing left
    const Copy c = queue_.front();
    queue_.pop_front();
    lock.unlock();
    std::memcpy(c.to, c.from, c.bytes);
    lock.lock();
    busy_[c.stage] = false;
    copied_.notify_all();
  }
}

void StagedStream::submit(const Copy& copy) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_[copy.stage] = true;
    queue_.push_back(copy);
  }
  queued_.notify_one();
}

void StagedStream::wait_for(int stage) {
  std::unique_lock<std::mutex> lock(mutex_);
  copied_.wait(lock, [&] { return !busy_[stage]; });
}

void StagedStream::wait_for_all() {
  for (int s = 0; s < kStages; ++s) wait_for(s);
}

uint64_t StagedStream::read(const Source& source, uint8_t* to, uint64_t most, const Arrived& arrived) {
  // Stages are used in turn; ends_[s] is where stage s's last copy ends,
  // so that once it is done, everything before it is in place too (each
  // stage is waited for before its reuse, in the same turn).
  // Arrivals are told every arrival_bytes_ (each may reserve more of the
  // output: a stage's worth would be too often).
  uint64_t ends[kStages] = {};
  uint64_t n = 0, told = 0;
  const auto settle = [&](int s) {
    wait_for(s);
    if (arrived && ends[s] >= told + arrival_bytes_) {
      told = ends[s];
      arrived(told);
    }
  };
  try {
    for (int s = 0;; s = (s + 1) % kStages) {
      const uint64_t want = std::min(stage_bytes_, most - n);
      if (want == 0) break;
      settle(s);
      uint8_t* stage = stages_[s].data();
      const uint64_t got = source(stage, want);
      if (got == 0) break;
      submit(Copy{stage, to + n, got, s});
      n += got;
      ends[s] = n;
      if (got < want) break;  // a short read: the stream has ended
    }
  } catch (...) {
    wait_for_all();
    throw;
  }
  wait_for_all();
  if (n > told && arrived) arrived(n);
  return n;
}

}  // namespace gsort
