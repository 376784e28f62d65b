#include "src/output/output_writer.h"

#include <algorithm>
#include <cstring>

#include "src/algo/gather.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {

OutputWriter::OutputWriter(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes,
                           const KeyLayout* unique_by)
    : OutputWriter(std::make_unique<WriteBehind>(std::move(sink),
                                                 std::max<uint64_t>(block_bytes / record_size, 1) * record_size),
                   record_size, unique_by) {}

OutputWriter::OutputWriter(std::unique_ptr<BlockTarget> target, uint32_t record_size, const KeyLayout* unique_by)
    : BlockWriter(std::move(target)), record_size_(record_size), unique_by_(unique_by) {
  take_block();
}

void OutputWriter::throw_full() const {
  throw Error("internal error: the output outgrew the range reserved for it");
}

void OutputWriter::flush() {
  if (used_ == 0) return;
  const uint64_t records = used_ / record_size_;
  if (final_) {
    if (test_hooks::before_final_write) {
      test_hooks::before_final_write(block_, records, record_size_, flushed_records_);
    }
    if (check_) check_->observe(block_, records);
  }
  flushed_records_ += records;
  hand_over();
  take_block();
}

uint64_t OutputWriter::drop_duplicates(uint8_t* first, uint64_t count) {
  uint64_t kept = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* rec = first + i * record_size_;
    if (has_last_ && unique_by_->compare(last_, rec) == 0) {
      if (check_) check_->dropped(rec);
      continue;
    }
    uint8_t* dst = first + kept * record_size_;
    if (dst != rec) std::memmove(dst, rec, record_size_);
    keep_last(dst, record_size_, true);
    ++kept;
  }
  return kept;
}

uint64_t OutputWriter::append_gathered_block(ThreadPool& pool, const uint8_t* records, const uint32_t* order,
                                             uint64_t count) {
  const uint64_t room = (capacity_ - used_) / record_size_;
  if (room == 0 && count > 0) throw_full();
  const uint64_t n = std::min(room, count);
  uint8_t* dst = block_ + used_;
  const Stopwatch gathering;
  gather_records(pool, records, record_size_, order, n, dst);
  gather_s_ += gathering.seconds();
  const uint64_t kept = unique_by_ ? drop_duplicates(dst, n) : n;
  if (mapped()) drop_written(pool, dst, kept * record_size_);
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
  finish_blocks();
}

}  // namespace gsort
