#include "src/pipeline/next_run_ahead.h"

#include <algorithm>
#include <utility>

#include "src/pipeline/sort_on_device.h"

namespace gsort {

NextRunAhead::NextRunAhead(InputSet& inputs, uint32_t record_size, uint64_t most_bytes)
    : inputs_(inputs), record_size_(record_size), most_records_(most_bytes / record_size) {}

NextRunAhead::~NextRunAhead() {
  if (thread_.joinable()) thread_.join();
}

void NextRunAhead::start(uint64_t records) {
  wait();
  records = std::min(records, most_records_);
  if (records == 0 || begin_ < end_) return;
  if (!buffer_) buffer_ = HostBuffer::allocate_pageable(static_cast<size_t>(most_records_ * record_size_));
  begin_ = end_ = 0;
  ++started_;
  thread_ = std::thread([this, records] {
    try {
      end_ = inputs_.read(buffer_.data(), records, nullptr);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

void NextRunAhead::wait() {
  if (thread_.joinable()) {
    thread_.join();
    bytes_ += (end_ - begin_) * record_size_;
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

uint64_t NextRunAhead::read_into(ThreadPool& pool, ResidentSort& resident, uint64_t count) {
  wait();
  return fill_device(resident, count, [&](uint8_t* slot, uint64_t want) {
    const uint64_t ready = std::min(want, end_ - begin_);
    if (ready > 0) {
      parallel_copy(pool, slot, buffer_.data() + begin_ * record_size_, ready * record_size_);
      begin_ += ready;
    }
    return ready + (want > ready ? inputs_.read(slot + ready * record_size_, want - ready, &pool) : 0);
  });
}

}  // namespace gsort
