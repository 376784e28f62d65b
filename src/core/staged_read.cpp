#include "src/core/staged_read.h"

#include <algorithm>
#include <cstring>
#include <future>

namespace gsort {

StagedRead::StagedRead(ThreadPool& pool, uint64_t unit, uint64_t stage_bytes)
    : pool_(pool), stage_bytes_(std::max<uint64_t>(stage_bytes / unit, 1) * unit) {
  for (HostBuffer& s : stages_) {
    s = HostBuffer::allocate_pageable(stage_bytes_);
    std::memset(s.data(), 0, stage_bytes_);  // present before the first read
  }
}

uint64_t StagedRead::read(const Source& source, uint8_t* to, uint64_t most, const Arrived& arrived) {
  const size_t tasks = pool_.size();
  // The copy of the stage before, on the pool (urgent: the reader waits
  // for it before it may reuse that stage); `placed` bytes are in place.
  std::future<void> copying;
  uint64_t placed = 0, n = 0;
  const auto settle = [&] {
    if (!copying.valid()) return;
    copying.get();
    placed = n;
    if (arrived) arrived(placed);
  };
  for (int b = 0;; b = 1 - b) {
    const uint64_t want = std::min(stage_bytes_, most - n);
    if (want == 0) break;
    uint8_t* stage = stages_[b].data();
    const uint64_t got = source(stage, want);
    settle();
    if (got == 0) break;
    uint8_t* at = to + n;
    n += got;
    copying = std::async(std::launch::async, [this, at, stage, got, tasks] {
      pool_.parallel_for(
          tasks,
          [&](size_t t) {
            const uint64_t from = split_point(got, tasks, t), end = split_point(got, tasks, t + 1);
            std::memcpy(at + from, stage + from, end - from);
          },
          true);
    });
    if (got < want) break;  // a short read: the stream has ended
  }
  settle();
  return n;
}

}  // namespace gsort
