#include "src/output/block_writer.h"

#include <algorithm>

#include "src/core/host_buffer.h"

namespace gsort {

void BlockWriter::hand_over() {
  if (has_last_ && last_ != carried_.data()) {
    carried_.assign(last_, last_ + last_len_);
    last_ = carried_.data();
  }
  if (bytes_counter_) bytes_counter_->fetch_add(used_, std::memory_order_relaxed);
  target_->submit(used_);
  ++blocks_;
  used_ = 0;
  block_ = nullptr;
  capacity_ = 0;
}

void BlockWriter::finish_blocks() {
  if (used_ != 0) hand_over();
  target_->finish();
}

void BlockWriter::drop_written(ThreadPool& pool, uint8_t* p, uint64_t bytes) {
  constexpr uint64_t kLeastPiece = uint64_t{8} << 20;  // less is not worth a task
  const size_t tasks = static_cast<size_t>(std::min<uint64_t>(pool.size(), bytes / kLeastPiece + 1));
  if (tasks == 1) {
    drop_written_pages(p, bytes);
    return;
  }
  pool.parallel_for(tasks, [&](size_t t) {
    const uint64_t from = split_point(bytes, tasks, t), to = split_point(bytes, tasks, t + 1);
    drop_written_pages(p + from, to - from);
  });
}

}  // namespace gsort
