#include "src/output/output_writer.h"

#include <algorithm>
#include <cstring>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/algo/gather.h"
#include "src/core/test_hooks.h"

namespace gsort {

OutputWriter::OutputWriter(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes,
                           const KeyLayout* unique_by)
    : OutputWriter(std::make_unique<WriteBehind>(std::move(sink),
                                                 std::max<uint64_t>(block_bytes / record_size, 1) * record_size),
                   record_size, unique_by) {}

OutputWriter::OutputWriter(std::unique_ptr<BlockTarget> target, uint32_t record_size, const KeyLayout* unique_by)
    : record_size_(record_size),
      unique_by_(unique_by),
      target_(std::move(target)),
      buffer_(target_->buffer()),
      capacity_(target_->capacity()),
      carried_(record_size) {}

void OutputWriter::throw_full() const {
  throw Error("internal error: the output outgrew the range reserved for it");
}

void OutputWriter::flush() {
  if (used_ == 0) return;
  if (unique_by_ && has_last_) {
    std::memcpy(carried_.data(), last_kept_, record_size_);
    last_kept_ = carried_.data();
  }
  const uint64_t records = used_ / record_size_;
  if (final_) {
    if (test_hooks::before_final_write) {
      test_hooks::before_final_write(buffer_, records, record_size_, flushed_records_);
    }
    if (check_) check_->observe(buffer_, records);
  }
  flushed_records_ += records;
  if (bytes_counter_) bytes_counter_->fetch_add(used_, std::memory_order_relaxed);
  target_->submit(used_);
  buffer_ = target_->buffer();
  capacity_ = target_->capacity();
  used_ = 0;
}

uint64_t OutputWriter::drop_duplicates(uint8_t* first, uint64_t count) {
  uint64_t kept = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* rec = first + i * record_size_;
    if (has_last_ && unique_by_->compare(last_kept_, rec) == 0) {
      if (check_) check_->dropped(rec);
      continue;
    }
    uint8_t* dst = first + kept * record_size_;
    if (dst != rec) std::memmove(dst, rec, record_size_);
    last_kept_ = dst;
    has_last_ = true;
    ++kept;
  }
  return kept;
}

void OutputWriter::drop_written(ThreadPool& pool, uint8_t* p, uint64_t bytes) {
  constexpr uint64_t kLeastPiece = uint64_t{8} << 20;  // less is not worth a task
  const size_t tasks = static_cast<size_t>(std::min<uint64_t>(pool.size(), bytes / kLeastPiece + 1));
  pool.parallel_for(tasks, [&](size_t t) {
    const uint64_t from = split_point(bytes, tasks, t), to = split_point(bytes, tasks, t + 1);
    drop_written_pages(p + from, to - from);
  });
}

uint64_t OutputWriter::append_gathered_block(ThreadPool& pool, const uint8_t* records, const uint32_t* order,
                                             uint64_t count) {
  const uint64_t room = (capacity_ - used_) / record_size_;
  if (room == 0 && count > 0) throw_full();
  const uint64_t n = std::min(room, count);
  uint8_t* dst = buffer_ + used_;
  gather_records(pool, records, record_size_, order, n, dst);
  const uint64_t kept = unique_by_ ? drop_duplicates(dst, n) : n;
  if (target_->is_mapping()) drop_written(pool, dst, kept * record_size_);
  used_ += kept * record_size_;
  records_ += kept;
  if (used_ + record_size_ > capacity_) flush();
  return n;
}

void OutputWriter::append_gathered(ThreadPool& pool, const uint8_t* records, const uint32_t* order,
                                   uint64_t count) {
  for (uint64_t done = 0; done < count;) done += append_gathered_block(pool, records, order + done, count - done);
}

void OutputWriter::finish() {
  flush();
  target_->finish();
}

}  // namespace gsort
