// What the end of every sorted stream does, whatever its unit (a record, or
// a line and its terminator): fills the blocks of a BlockTarget in order and
// hands each over once full; counts the bytes handed over, for the progress
// line; and keeps the last unit kept readable once its block is handed over
// (copied out: a target may reuse a block it was handed, as write-behind
// buffers are), for -u and --verify, which compare each unit with the one
// before it. OutputWriter (records) and LineWriter (lines) fill the
// blocks each in its own way.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "io/output/block_target.h"
#include "src/core/thread_pool.h"

namespace gsort {

class BlockWriter {
 public:
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;

  // A counter advanced by the bytes of each block handed over.
  void count_bytes(std::atomic<uint64_t>* counter) { bytes_counter_ = counter; }

 protected:
  explicit BlockWriter(std::unique_ptr<BlockTarget> target) : target_(std::move(target)) {}
  ~BlockWriter() = default;

  // Takes the target's current block: at once for a writer that fills it
  // at once, else on first use (a mapped block waits for its pages).
  void take_block() {
    block_ = target_->buffer();
    capacity_ = target_->capacity();
  }
  // Hands the used part of the block over (a last unit that lies in it is
  // copied out first); the next is take_block()'s.
  void hand_over();
  // Hands the rest over and waits until the target has it all.
  void finish_blocks();
  // The unit just kept, `len` bytes at `unit`: in the current block, or
  // anywhere else (then copied, as its place may go).
  void keep_last(const uint8_t* unit, uint64_t len, bool in_block) {
    has_last_ = true;
    last_len_ = len;
    if (in_block) {
      last_ = unit;
    } else {
      carried_.assign(unit, unit + len);
      last_ = carried_.data();
    }
  }
  // Whether the blocks are the output itself, mapped.
  bool mapped() const { return target_->is_mapping(); }
  // Drops the page-table entries of the whole pages of p[0, bytes), units
  // written into a mapped block, on the pool: the unmap at the end, one
  // thread's work, then clears that much less (the bytes stay in the page
  // cache, dirty).
  static void drop_written(ThreadPool& pool, uint8_t* p, uint64_t bytes);

  std::unique_ptr<BlockTarget> target_;
  uint8_t* block_ = nullptr;  // the current block, capacity_ bytes, used_ of them filled
  uint64_t capacity_ = 0;
  uint64_t used_ = 0;
  uint64_t blocks_ = 0;  // handed over
  const uint8_t* last_ = nullptr;  // the last unit kept, in the block or carried_
  uint64_t last_len_ = 0;
  bool has_last_ = false;

 private:
  std::vector<uint8_t> carried_;
  std::atomic<uint64_t>* bytes_counter_ = nullptr;
};

}  // namespace gsort
