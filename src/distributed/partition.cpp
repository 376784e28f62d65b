#include "src/distributed/partition.h"

#include <algorithm>
#include <cstring>

namespace gsort {
namespace {

// Fewer records than this per task are not worth another thread.
constexpr uint64_t kMinTaskRecords = 1 << 16;

}  // namespace

Partitioner::Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks, ThreadPool* pool)
    : layout_(layout), splitters_(splitters), pool_(pool), ranks_(static_cast<size_t>(ranks)), counts_(ranks_) {}

void Partitioner::partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets) {
  const size_t rs = layout_.record_size();
  const size_t most_tasks = pool_ ? pool_->balanced_task_count() : 1;
  const size_t tasks = static_cast<size_t>(std::clamp<uint64_t>(count / kMinTaskRecords, 1, most_tasks));
  destination_.resize(count);
  task_counts_.assign(tasks * ranks_, 0);
  const auto run = [&](const std::function<void(size_t)>& task) {
    if (pool_ && tasks > 1) {
      pool_->parallel_for(tasks, task);
    } else {
      for (size_t t = 0; t < tasks; ++t) task(t);
    }
  };
  run([&](size_t t) {
    std::vector<uint8_t> position(splitters_.position_bytes());
    uint64_t* mine = task_counts_.data() + t * ranks_;
    const uint64_t end = split_point(count, tasks, t + 1);
    for (uint64_t i = split_point(count, tasks, t); i < end; ++i) {
      write_order_position(layout_, records + i * rs, first_index + i, position.data());
      const auto d = static_cast<uint32_t>(splitters_.destination(position.data()));
      destination_[i] = d;
      ++mine[d];
    }
  });
  // Bucket d holds the records of task 0 for d, then task 1's, ...: each
  // task's counts become its write positions.
  uint64_t start = 0;
  for (size_t d = 0; d < ranks_; ++d) {
    counts_[d] = 0;
    for (size_t t = 0; t < tasks; ++t) {
      const uint64_t n = task_counts_[t * ranks_ + d];
      task_counts_[t * ranks_ + d] = start;
      start += n;
      counts_[d] += n;
    }
  }
  run([&](size_t t) {
    uint64_t* next = task_counts_.data() + t * ranks_;
    const uint64_t end = split_point(count, tasks, t + 1);
    for (uint64_t i = split_point(count, tasks, t); i < end; ++i) {
      std::memcpy(buckets + next[destination_[i]]++ * rs, records + i * rs, rs);
    }
  });
}

}  // namespace gsort
