// The end of every sorted stream of records: records appended in order go
// into the blocks of a BlockTarget (block_writer.h): write-behind buffers on
// their way to a sink (the output file, an encoder, a run file), or the
// output file itself, mapped (io/output/mapped_window.h).
// With a unique layout (-u), a record whose key equals the previous kept
// record's key is dropped, so the first record of each group survives.
// The final output may carry an OutputCheck (--verify), which sees every
// block before it is written, and every record -u drops.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "io/output/block_target.h"
#include "io/output/write_behind.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/output/block_writer.h"
#include "src/verify/output_check.h"

namespace gsort {

class OutputWriter : public BlockWriter {
 public:
  // unique_by: null keeps every record. Blocks of block_bytes go to `sink`
  // through write-behind buffers.
  OutputWriter(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes, const KeyLayout* unique_by);
  // The blocks are `target`'s (a whole number of records each).
  OutputWriter(std::unique_ptr<BlockTarget> target, uint32_t record_size, const KeyLayout* unique_by);

  // Marks this as the destination's stream (not a run); check: null, or
  // the --verify check to show every block and every dropped record.
  void final_output(OutputCheck* check) {
    final_ = true;
    check_ = check;
  }
  // One record (the merge's path).
  void append(const uint8_t* record) {
    if (unique_by_ && has_last_ && unique_by_->compare(last_, record) == 0) {
      if (check_) check_->dropped(record);
      return;
    }
    if (used_ + record_size_ > capacity_) throw_full();
    uint8_t* dst = block_ + used_;
    std::memcpy(dst, record, record_size_);
    if (unique_by_) keep_last(dst, record_size_, true);
    used_ += record_size_;
    ++records_;
    if (used_ + record_size_ > capacity_) flush();
  }

  // records[order[0..count)] in that order, gathered by the pool's threads
  // straight into the write buffers.
  void append_gathered(ThreadPool& pool, const uint8_t* records, const uint32_t* order, uint64_t count);
  // The same for what fits the current write buffer only (handed to the
  // writer once full); returns how many entries of `order` it took (at
  // least one when count > 0). Lets one thread feed several writers in turn.
  uint64_t append_gathered_block(ThreadPool& pool, const uint8_t* records, const uint32_t* order, uint64_t count);

  // Writes what is buffered and waits for the sink.
  void finish();
  uint64_t records_written() const { return records_; }
  // Seconds append_gathered spent gathering (the pool's loops, waits for
  // its threads included): the rest of a run's write is handing blocks over.
  double gather_seconds() const { return gather_s_; }

 private:
  // Hands the block over (the final output's shown to --verify first).
  void flush();
  [[noreturn]] void throw_full() const;
  // Drops duplicates from the `count` records that start at `first`, in place;
  // returns how many remain.
  uint64_t drop_duplicates(uint8_t* first, uint64_t count);

  uint32_t record_size_;
  const KeyLayout* unique_by_;
  uint64_t records_ = 0;
  bool final_ = false;
  OutputCheck* check_ = nullptr;
  uint64_t flushed_records_ = 0;
  double gather_s_ = 0;
};

}  // namespace gsort
