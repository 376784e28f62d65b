#include "io/output/write_behind.h"

#include <stdexcept>

namespace gsort {

WriteBehind::WriteBehind(Sink sink, size_t buffer_bytes, unsigned buffers)
    : sink_(std::move(sink)), capacity_(buffer_bytes) {
  if (buffers < 2) buffers = 2;
  for (unsigned i = 0; i < buffers; ++i) {
    storage_.push_back(HostBuffer::allocate_pageable(buffer_bytes));
    free_.push_back(storage_.back().data());
  }
  current_ = free_.back();
  free_.pop_back();
  thread_ = std::thread([this] { writer_loop(); });
}

WriteBehind::WriteBehind(Sink sink, size_t buffer_bytes, const std::vector<uint8_t*>& borrowed)
    : sink_(std::move(sink)), capacity_(buffer_bytes), free_(borrowed) {
  if (free_.size() < 2) throw std::invalid_argument("WriteBehind: fewer than two buffers");
  current_ = free_.back();
  free_.pop_back();
  thread_ = std::thread([this] { writer_loop(); });
}

WriteBehind::~WriteBehind() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    queue_.clear();  // an abandoned write: drop what was not written
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WriteBehind::rethrow_if_failed() {
  if (error_) {
    std::exception_ptr e = error_;
    std::rethrow_exception(e);
  }
}

void WriteBehind::submit(size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  rethrow_if_failed();
  if (bytes > 0) {
    queue_.emplace_back(current_, bytes);
    changed_.notify_all();
    changed_.wait(lock, [&] { return !free_.empty() || error_; });
    rethrow_if_failed();
    current_ = free_.back();
    free_.pop_back();
  }
}

void WriteBehind::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (finished_) return;
  changed_.wait(lock, [&] { return (queue_.empty() && !in_flight_) || error_; });
  rethrow_if_failed();
  finished_ = true;
  closing_ = true;
  changed_.notify_all();
  lock.unlock();
  thread_.join();
}

void WriteBehind::writer_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing with nothing left
    auto [data, bytes] = queue_.front();
    queue_.pop_front();
    in_flight_ = true;
    lock.unlock();
    try {
      sink_(data, bytes);
    } catch (...) {
      lock.lock();
      error_ = std::current_exception();
      in_flight_ = false;
      queue_.clear();
      changed_.notify_all();
      return;
    }
    lock.lock();
    in_flight_ = false;
    free_.push_back(data);
    changed_.notify_all();
  }
}

}  // namespace gsort
