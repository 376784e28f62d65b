// Blocks straight into a mapped range of the output (MappedOutputRange):
// buffer() is the next unwritten part of the range, at most a block long,
// and submit() moves past what was filled. Whoever fills a block (the
// pool's threads gathering records into it) writes the output itself: no
// copy, no write(), no writer thread; page faults take the place of the
// inode's write lock, so threads fill the range at once. A range of a few
// stretches or more has its filled stretches' page-table entries dropped
// behind the writers (drop_behind.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/output/block_target.h"
#include "io/output/drop_behind.h"
#include "io/output/populate_ahead.h"
#include "src/core/errors.h"

namespace gsort {

class MappedWindow final : public BlockTarget {
 public:
  // `ahead`: where the range's pages are being made present (null: they
  // fault in as written); each block is handed out once they are.
  MappedWindow(uint8_t* base, uint64_t bytes, size_t block_bytes, PopulateAhead* ahead = nullptr)
      : base_(base),
        bytes_(bytes),
        block_(block_bytes),
        ahead_(ahead),
        behind_(bytes >= 2 * DropBehind::kStretch ? std::make_unique<DropBehind>() : nullptr) {}

  uint8_t* buffer() const override {
    if (ahead_) ahead_->wait_until(done_ + capacity());
    return base_ + done_;
  }
  size_t capacity() const override { return static_cast<size_t>(std::min<uint64_t>(block_, bytes_ - done_)); }
  void submit(size_t bytes) override {
    if (bytes > capacity()) throw Error("internal error: the output outgrew the range reserved for it");
    done_ += bytes;
    if (behind_ && done_ - dropped_ >= DropBehind::kStretch) {
      behind_->drop(base_ + dropped_, done_ - dropped_);
      dropped_ = done_;
    }
  }
  void finish() override {
    if (behind_) behind_->wait();
  }
  bool is_mapping() const override { return true; }
  // Bytes of the range filled so far.
  uint64_t filled() const { return done_; }

 private:
  uint8_t* base_;
  uint64_t bytes_;
  size_t block_;
  PopulateAhead* ahead_;
  uint64_t done_ = 0;
  uint64_t dropped_ = 0;  // bytes handed to behind_
  // Last: its thread, which drops within the range, ends first.
  std::unique_ptr<DropBehind> behind_;
};

}  // namespace gsort
