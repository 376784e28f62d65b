#include "src/merge/ordered_ranges.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

class RangeSlots {
 public:
  RangeSlots(size_t ranges, size_t slots, uint64_t slot_bytes)
      : filled_(ranges, 0), slot_of_(ranges, 0), slot_bytes_(slot_bytes), slots_(slots) {
    for (size_t s = slots; s-- > 0;) free_.push_back(s);
  }

  // The next range in order and the slot to fill it in; false when every
  // range is taken or anything failed.
  bool take(size_t* range, uint8_t** slot) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || next_ >= filled_.size() || !free_.empty(); });
    if (failed_ || next_ >= filled_.size()) return false;
    const size_t s = free_.back();
    free_.pop_back();
    if (!slots_[s]) slots_[s] = HostBuffer::allocate_pageable(static_cast<size_t>(slot_bytes_));
    *range = next_++;
    slot_of_[*range] = s;
    *slot = slots_[s].data();
    return true;
  }
  void filled(size_t range) {
    std::lock_guard<std::mutex> lock(mutex_);
    filled_[range] = 1;
    changed_.notify_all();
  }
  // Range p's bytes once filled; null when anything failed.
  const uint8_t* wait_filled(size_t p) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || filled_[p] != 0; });
    return failed_ ? nullptr : slots_[slot_of_[p]].data();
  }
  void written(size_t p) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(slot_of_[p]);
    changed_.notify_all();
  }
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
    failed_ = true;
    changed_.notify_all();
  }
  std::exception_ptr error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<char> filled_;
  std::vector<size_t> slot_of_;
  std::vector<size_t> free_;
  const uint64_t slot_bytes_;
  std::vector<HostBuffer> slots_;  // allocated when first lent
  size_t next_ = 0;
  bool failed_ = false;
  std::exception_ptr error_;
};

}  // namespace

OrderedRangesFigures write_ranges_in_order(ThreadPool& pool, size_t workers, const std::vector<uint64_t>& sizes,
                                           uint64_t memory_bytes, const std::function<FillRange()>& make_filler,
                                           const RangeSink& sink, std::atomic<uint64_t>* written) {
  OrderedRangesFigures f;
  if (sizes.empty()) return f;
  f.slot_bytes = std::max<uint64_t>(*std::max_element(sizes.begin(), sizes.end()), 1);
  // One slot being written, one for each worker, one spare: more than that
  // only holds memory.
  f.slots = static_cast<size_t>(std::clamp<uint64_t>(memory_bytes / f.slot_bytes, 1, workers + 2));
  RangeSlots slots(sizes.size(), f.slots, f.slot_bytes);
  std::thread writer([&] {
    try {
      for (size_t p = 0; p < sizes.size(); ++p) {
        const Stopwatch waiting;
        const uint8_t* range = slots.wait_filled(p);
        f.write_wait_s += waiting.seconds();
        if (!range) return;
        if (sizes[p] > 0) sink(range, static_cast<size_t>(sizes[p]));
        if (written) written->fetch_add(sizes[p], std::memory_order_relaxed);
        f.bytes += sizes[p];
        slots.written(p);
      }
    } catch (...) {
      slots.fail(std::current_exception());
    }
  });
  pool.parallel_for(std::min(workers, sizes.size()), [&](size_t) {
    try {
      const FillRange fill = make_filler();
      size_t p = 0;
      uint8_t* slot = nullptr;
      while (slots.take(&p, &slot)) {
        fill(p, slot);
        slots.filled(p);
      }
    } catch (...) {
      slots.fail(std::current_exception());
    }
  });
  writer.join();
  if (std::exception_ptr e = slots.error()) std::rethrow_exception(e);
  return f;
}

}  // namespace gsort
