#include "src/distributed/receive_preparation.h"

#include <algorithm>

#include "src/distributed/local_sort.h"

namespace gsort {
namespace {

constexpr uint64_t kPage = 4096;

HostBuffer faulted_in(uint64_t bytes, ThreadPool& pool) {
  HostBuffer buffer = HostBuffer::allocate_pageable(std::max<uint64_t>(bytes, 1));
  fault_in_pages(buffer.data(), buffer.size(), pool);
  return buffer;
}

}  // namespace

ReceivePreparation::ReceivePreparation(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool,
                                       uint64_t receive_records, uint64_t send_records)
    : record_size_(layout.record_size()), receive_capacity_(receive_records), send_capacity_(send_records) {
  thread_ = std::thread([this, &rank_config, &layout, &pool] {
    try {
      prepare(rank_config, layout, pool);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

ReceivePreparation::~ReceivePreparation() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  gate_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ReceivePreparation::prepare(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool) {
  HostBuffer receive = faulted_in(receive_capacity_ * record_size_, pool);
  HostBuffer send = send_capacity_ ? faulted_in(send_capacity_ * record_size_, pool) : HostBuffer();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    gate_.wait(lock, [this] { return exchange_started_ || stopping_; });
    if (stopping_) return;
  }
  backend_ = make_receive_backend(rank_config, layout, pool, receive_capacity_);
  receive_ = pinned(std::move(receive));
  if (send) send_ = pinned(std::move(send));
}

HostBuffer ReceivePreparation::pinned(HostBuffer buffer) {
  const size_t bytes = buffer.size();
  // Whole pages: the memory is page aligned and its allocation ends on a
  // page boundary (HostBuffer::allocate_pageable).
  if (!backend_->pins_host() || !backend_->register_host(buffer.data(), (bytes + kPage - 1) / kPage * kPage)) {
    return buffer;
  }
  auto memory = std::make_shared<HostBuffer>(std::move(buffer));
  SortBackend* backend = backend_.get();
  return HostBuffer(memory->data(), bytes, [backend, memory](void* p) mutable {
    backend->unregister_host(p);
    memory.reset();
  });
}

void ReceivePreparation::exchange_started() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exchange_started_ = true;
  }
  gate_.notify_all();
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
