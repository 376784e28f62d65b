#include "src/chunk_sort/cpu/stream_piece_sort.h"

#include <algorithm>

#include "src/chunk_sort/cpu/entry_sort.h"
#include "src/chunk_sort/cpu/piece_merge.h"
#include "src/chunk_sort/entries/entry_merge.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

constexpr uint64_t kPieceBytes = uint64_t{64} << 20;
constexpr uint64_t kMinPieceRecords = uint64_t{1} << 16;  // below this, one thread sorts a piece

}  // namespace

uint64_t StreamPieceSort::default_piece_records(uint32_t record_size) {
  return std::max<uint64_t>(kMinPieceRecords, kPieceBytes / record_size);
}

StreamPieceSort::StreamPieceSort(const KeyLayout& layout, ThreadPool& pool, const uint8_t* records,
                                 uint64_t capacity, uint64_t piece_records, BackendTimings& timings)
    : layout_(layout),
      pool_(pool),
      records_(records),
      capacity_(capacity),
      piece_records_(std::max<uint64_t>(1, piece_records)),
      timings_(timings),
      entries_buf_(HostBuffer::allocate_pageable(std::max<uint64_t>(1, capacity) * sizeof(KeyEntry))),
      scratch_buf_(HostBuffer::allocate_pageable(std::max<uint64_t>(1, capacity) * sizeof(KeyEntry))),
      thread_([this] { loop(); }) {}

StreamPieceSort::~StreamPieceSort() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void StreamPieceSort::records_ready(uint64_t available) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    available_ = std::max(available_, std::min(available, capacity_));
  }
  changed_.notify_all();
}

void StreamPieceSort::loop() {
  for (;;) {
    uint64_t begin = 0, end = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto piece_ready = [&] {
        const uint64_t sorted = bounds_.back();
        return available_ - sorted >= piece_records_ || (final_ != UINT64_MAX && sorted < final_);
      };
      changed_.wait(lock, [&] { return stopping_ || piece_ready(); });
      if (stopping_) return;
      begin = bounds_.back();
      end = available_;
      idle_ = false;
    }
    try {
      sort_piece(begin, end);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      idle_ = true;
      changed_.notify_all();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      bounds_.push_back(end);
      idle_ = true;
    }
    changed_.notify_all();
  }
}

void StreamPieceSort::sort_piece(uint64_t begin, uint64_t end) {
  const uint64_t n = end - begin;
  const uint32_t rs = layout_.record_size();
  KeyEntry* e = reinterpret_cast<KeyEntry*>(entries_buf_.data()) + begin;
  KeyEntry* tmp = reinterpret_cast<KeyEntry*>(scratch_buf_.data()) + begin;
  const size_t slices = n < kMinPieceRecords ? 1 : pool_.size();
  std::vector<size_t> cut(slices + 1);
  for (size_t s = 0; s <= slices; ++s) cut[s] = split_point(n, slices, s);
  Stopwatch t;
  pool_.parallel_for(slices, [&](size_t s) {
    for (size_t i = cut[s]; i < cut[s + 1]; ++i) {
      e[i].prefix = layout_.prefix(records_ + (begin + i) * rs);
      e[i].index = static_cast<uint32_t>(begin + i);
    }
    sort_entries(layout_, records_, e + cut[s], tmp + cut[s], cut[s + 1] - cut[s]);
  });
  timings_.sort_s += t.lap();
  if (slices > 1) {
    const KeyEntry* merged = merge_entry_runs(pool_, layout_, records_, e, tmp, cut);
    if (merged != e) {
      parallel_copy(pool_, reinterpret_cast<uint8_t*>(e), reinterpret_cast<const uint8_t*>(merged), n * sizeof(KeyEntry));
    }
    timings_.merge_s += t.lap();
  }
}

void StreamPieceSort::wait_caught_up() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return error_ || (idle_ && available_ - bounds_.back() < piece_records_); });
}

void StreamPieceSort::settle(uint64_t count) {
  std::unique_lock<std::mutex> lock(mutex_);
  final_ = std::min(count, capacity_);
  available_ = final_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return error_ || (idle_ && bounds_.back() >= final_); });
  if (error_) std::rethrow_exception(error_);
}

void StreamPieceSort::finish(uint32_t* order) {
  uint64_t count;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    count = available_;
  }
  finish_in_parts(order, count, [](uint64_t) {});
}

void StreamPieceSort::finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) {
  settle(count);
  const Stopwatch t;
  merge_sorted_pieces(pool_, layout_, records_, reinterpret_cast<const KeyEntry*>(entries_buf_.data()), bounds_, order,
                      ready);
  timings_.merge_s += t.seconds();
  ++timings_.chunks;
}

}  // namespace gsort
