#include "src/distributed/local/receive_preparation.h"

#include <algorithm>
#include <memory>
#include <new>

#include "src/chunk_sort/backend_factory.h"
#include "src/distributed/local/local_sort.h"

namespace gsort {
namespace {

constexpr uint64_t kPage = 4096;

// A buffer of `bytes`, of which the first four fifths are faulted in: the
// capacities are a quarter above the mean partition, and zeroing pages that
// stay unused took pool time from the classify pass beside it. Pages past
// that fault in when written.
HostBuffer faulted_in(uint64_t bytes, ThreadPool& pool) {
  HostBuffer buffer = HostBuffer::allocate_pageable(std::max<uint64_t>(bytes, 1));
  fault_in_pages(buffer.data(), buffer.size() / 5 * 4, pool);
  return buffer;
}

}  // namespace

ReceivePreparation::ReceivePreparation(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool,
                                       uint64_t receive_records, uint64_t send_records)
    : config_(rank_config),
      layout_(layout),
      threads_(pool.size()),
      record_size_(layout.record_size()),
      receive_capacity_(receive_records),
      send_capacity_(send_records) {
  thread_ = std::thread([this, &pool] {
    try {
      prepare(pool);
    } catch (...) {
      error_ = std::current_exception();
    }
    send_settled(nullptr);  // a no-op where the send buffer was offered
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    changed_.notify_all();
  });
}

ReceivePreparation::~ReceivePreparation() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ReceivePreparation::prepare(ThreadPool& pool) {
  if (send_capacity_) send_ = faulted_in(send_capacity_ * record_size_, pool);
  send_settled(send_ ? send_.data() : nullptr);
  receive_ = faulted_in(receive_capacity_ * record_size_, pool);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    receive_memory_ = receive_.data();
    changed_.notify_all();
    changed_.wait(lock, [this] { return exchange_started_ || stopping_; });
    if (stopping_) return;
  }
  // Pinned only once the exchange has started: registering 15 GB while NCCL
  // starts serialised the two in the driver (start 1.1-1.4 s became
  // 2.2-3.0 s on nvidia-h200-x2). The send buffer first: the reader may be
  // filling it still, which registration does not disturb.
  if (send_) send_ = pinned(std::move(send_), pin_send_records_);
  receive_ = pinned(std::move(receive_), pin_receive_records_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    buffers_ready_ = true;
  }
  changed_.notify_all();
  backend_ = make_receive_backend(config_, layout_, pool, receive_capacity_);
}

void ReceivePreparation::send_settled(uint8_t* room) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (send_settled_) return;
    send_settled_ = true;
    send_room_ = room;
  }
  changed_.notify_all();
}

uint8_t* ReceivePreparation::send_room(uint64_t records) {
  if (records > send_capacity_) return nullptr;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return send_settled_; });
  return send_room_;
}

uint8_t* ReceivePreparation::receive_room(uint64_t records) {
  if (records > receive_capacity_) return nullptr;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return receive_memory_ || finished_; });
  return receive_memory_;
}

HostBuffer ReceivePreparation::pinned(HostBuffer buffer, uint64_t records) const {
  const size_t bytes = buffer.size();
  // Only the records that will be there, in whole pages (the memory is page
  // aligned, and its allocation ends on a page boundary).
  const size_t pages = std::min<uint64_t>((records * record_size_ + kPage - 1) / kPage * kPage,
                                          (bytes + kPage - 1) / kPage * kPage);
  if (pages == 0) return buffer;
  // Nothing here may free the buffer: records may be landing in it already
  // (receive_room). So what could throw comes first, and a failure leaves
  // it unpinned, as a failed registration does.
  struct Pinned {
    HostBuffer memory;
    std::unique_ptr<HostPin> pin;  // after `memory`: goes first
  };
  uint8_t* data = buffer.data();
  std::shared_ptr<Pinned> held;
  HostBuffer::Release release;
  try {
    held = std::make_shared<Pinned>();
    release = [held](void*) mutable { held.reset(); };
    held->pin = pin_for_backend(config_, record_size_, threads_, receive_capacity_ * record_size_, data, pages);
  } catch (const std::bad_alloc&) {
    return buffer;
  }
  if (!held->pin) return buffer;
  held->memory = std::move(buffer);
  return HostBuffer(data, bytes, std::move(release));
}

void ReceivePreparation::exchange_started(uint64_t send_records, uint64_t receive_records) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // A buffer too small for its records is not used: nothing of it pinned.
    pin_send_records_ = send_records <= send_capacity_ ? send_records : 0;
    pin_receive_records_ = receive_records <= receive_capacity_ ? receive_records : 0;
    exchange_started_ = true;
  }
  changed_.notify_all();
}

void ReceivePreparation::skip_backend() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
}

void ReceivePreparation::wait_for_buffers() {
  bool finished = false;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return buffers_ready_ || finished_; });
    finished = finished_;
  }
  if (finished) wait();
}

void ReceivePreparation::wait() {
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(error_);
}

HostBuffer ReceivePreparation::take(HostBuffer& buffer, uint64_t capacity, uint64_t records) {
  if (!buffer || records > capacity) return HostBuffer();
  return std::move(buffer);
}

}  // namespace gsort
