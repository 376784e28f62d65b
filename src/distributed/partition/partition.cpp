#include "src/distributed/partition/partition.h"

#include <algorithm>
#include <cstring>

namespace gsort {
namespace {

// Fewer records than this per task are not worth another thread.
constexpr uint64_t kMinTaskRecords = 1 << 16;

}  // namespace

Partitioner::Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks, ThreadPool* pool)
    : layout_(layout), splitters_(splitters), pool_(pool), ranks_(static_cast<size_t>(ranks)), counts_(ranks_) {}

template <class Task>
void Partitioner::run(const Task& task) const {
  if (pool_ && tasks_ > 1) {
    pool_->parallel_for(tasks_, task);
  } else {
    for (size_t t = 0; t < tasks_; ++t) task(t);
  }
}

void Partitioner::classify(const uint8_t* records, uint64_t count, uint64_t first_index) {
  if (byte_destinations()) {
    classify_as<uint8_t>(records, count, first_index);
  } else {
    classify_as<uint32_t>(records, count, first_index);
  }
}

template <class Destination>
void Partitioner::classify_as(const uint8_t* records, uint64_t count, uint64_t first_index) {
  const size_t rs = layout_.record_size();
  const size_t most_tasks = pool_ ? pool_->balanced_task_count() : 1;
  count_ = count;
  tasks_ = static_cast<size_t>(std::clamp<uint64_t>(count / kMinTaskRecords, 1, most_tasks));
  // Fresh memory, not a zero-filled vector: its pages are then faulted in
  // by the tasks that write them, in parallel, instead of all by this thread.
  // A byte per record where ranks allow: fresh pages cost their zeroing.
  if (destination_.size() < count * sizeof(Destination)) {
    destination_ = HostBuffer::allocate_pageable(std::max<uint64_t>(count, 1) * sizeof(Destination));
  }
  auto* destination = reinterpret_cast<Destination*>(destination_.data());
  task_counts_.assign(tasks_ * ranks_, 0);
  run([&](size_t t) {
    std::vector<uint8_t> position(splitters_.position_bytes());
    // Counted in the task's own vector: neighbouring tasks' counts share
    // cache lines, and incrementing those per record made this pass several
    // times slower (docs/benchmarks.md).
    std::vector<uint64_t> mine(ranks_, 0);
    const uint64_t end = split_point(count, tasks_, t + 1);
    for (uint64_t i = split_point(count, tasks_, t); i < end; ++i) {
      const auto d =
          static_cast<Destination>(splitters_.destination(layout_, records + i * rs, first_index + i, position.data()));
      destination[i] = d;
      ++mine[d];
    }
    std::copy(mine.begin(), mine.end(), task_counts_.begin() + static_cast<ptrdiff_t>(t * ranks_));
  });
  std::fill(counts_.begin(), counts_.end(), 0);
  for (size_t t = 0; t < tasks_; ++t) {
    for (size_t d = 0; d < ranks_; ++d) counts_[d] += task_counts_[t * ranks_ + d];
  }
}

void Partitioner::scatter_as_chosen(const uint8_t* records, const std::vector<uint8_t*>& buckets) {
  if (byte_destinations()) {
    scatter_as<uint8_t>(records, buckets);
  } else {
    scatter_as<uint32_t>(records, buckets);
  }
}

template <class Destination>
void Partitioner::scatter_as(const uint8_t* records, const std::vector<uint8_t*>& buckets) {
  const size_t rs = layout_.record_size();
  // Bucket d holds task 0's records for d, then task 1's, ...: each task
  // starts writing where the tasks before it end.
  std::vector<uint64_t> next(tasks_ * ranks_);
  for (size_t d = 0; d < ranks_; ++d) {
    uint64_t start = 0;
    for (size_t t = 0; t < tasks_; ++t) {
      next[t * ranks_ + d] = start;
      start += task_counts_[t * ranks_ + d];
    }
  }
  const auto* destination = reinterpret_cast<const Destination*>(destination_.data());
  run([&](size_t t) {
    // Each task's own write pointers (not shared cache lines, as above).
    std::vector<uint8_t*> at(ranks_);
    for (size_t d = 0; d < ranks_; ++d) at[d] = buckets[d] ? buckets[d] + next[t * ranks_ + d] * rs : nullptr;
    const uint64_t end = split_point(count_, tasks_, t + 1);
    for (uint64_t i = split_point(count_, tasks_, t); i < end; ++i) {
      uint8_t*& to = at[destination[i]];
      if (!to) continue;  // a bucket left for another call
      std::memcpy(to, records + i * rs, rs);
      to += rs;
    }
  });
}

void Partitioner::partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets) {
  classify(records, count, first_index);
  std::vector<uint8_t*> starts(ranks_);
  uint64_t before = 0;
  for (size_t d = 0; d < ranks_; ++d) {
    starts[d] = buckets + before * layout_.record_size();
    before += counts_[d];
  }
  scatter(records, starts);
}

}  // namespace gsort
