#include "io/file/direct_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {

std::unique_ptr<DirectWriter> DirectWriter::open(int fd, const std::string& path, size_t staging_bytes) {
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || at % static_cast<off_t>(kAlignment) != 0) return nullptr;
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  const int direct_fd = ::open(self.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
  if (direct_fd < 0) return nullptr;
  const size_t half = std::max(kAlignment, (staging_bytes / 2 + kAlignment - 1) / kAlignment * kAlignment);
  HostBuffer staging;
  try {
    staging = HostBuffer::allocate_pageable(2 * half);  // page-aligned (src/core/host_buffer.h)
  } catch (...) {
    ::close(direct_fd);
    throw;
  }
  return std::unique_ptr<DirectWriter>(
      new DirectWriter(fd, direct_fd, path, std::move(staging), static_cast<uint64_t>(at)));
}

DirectWriter::DirectWriter(int fd, int direct_fd, std::string path, HostBuffer staging, uint64_t offset)
    : fd_(fd),
      direct_fd_(direct_fd),
      path_(std::move(path)),
      staging_(std::move(staging)),
      half_(staging_.size() / 2),
      offset_(offset),
      thread_([this] { writer_loop(); }) {}

DirectWriter::~DirectWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
  ::close(direct_fd_);
}

bool DirectWriter::direct() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return direct_;
}

void DirectWriter::writer_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || pending_ != nullptr; });
    if (pending_ == nullptr) return;  // stopped with nothing queued
    const uint8_t* data = pending_;
    const size_t bytes = pending_bytes_;
    const uint64_t offset = pending_offset_;
    pending_ = nullptr;
    busy_ = true;
    lock.unlock();
    std::exception_ptr error;
    try {
      write_block(data, bytes, offset);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (error && !error_) error_ = error;
    changed_.notify_all();
  }
}

void DirectWriter::write_block(const uint8_t* data, size_t bytes, uint64_t offset) {
  size_t done = 0;
  while (done < bytes) {
    bool direct;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      direct = direct_;
    }
    const ssize_t w = ::pwrite(direct ? direct_fd_ : fd_, data + done, bytes - done, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    if (w < 0 && errno == EINVAL && direct && !wrote_) {
      direct_ = false;  // the file system takes no direct writes of this shape: write through the cache
      continue;
    }
    if (w <= 0) throw IoError("cannot write output: " + describe_errno(path_, w < 0 ? errno : ENOSPC));
    wrote_ = true;
    done += static_cast<size_t>(w);
    if (direct && done % kAlignment != 0) direct_ = false;  // a short write: the rest is unaligned
  }
}

void DirectWriter::wait_idle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [&] { return pending_ == nullptr && !busy_; });
  if (error_) std::rethrow_exception(error_);
}

void DirectWriter::submit(size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_idle(lock);  // the other half's write is over: it is free
  pending_ = staging_.data() + current_ * half_;
  pending_bytes_ = bytes;
  pending_offset_ = offset_;
  changed_.notify_all();
  offset_ += bytes;
  current_ ^= 1u;
  fill_ = 0;
}

void DirectWriter::append(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const size_t take = std::min(n, half_ - fill_);
    std::memcpy(staging_.data() + current_ * half_ + fill_, p, take);
    fill_ += take;
    p += take;
    n -= take;
    if (fill_ == half_) submit(fill_);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

void DirectWriter::finish() {
  if (finished_) return;
  finished_ = true;
  const uint64_t end = offset_ + fill_;
  std::unique_lock<std::mutex> lock(mutex_);
  wait_idle(lock);
  const bool direct = direct_;
  lock.unlock();
  if (fill_ > 0) {
    uint8_t* tail = staging_.data() + current_ * half_;
    size_t bytes = fill_;
    if (direct) {  // a whole last block, cut back below
      bytes = (fill_ + kAlignment - 1) / kAlignment * kAlignment;
      std::memset(tail + fill_, 0, bytes - fill_);
    }
    write_block(tail, bytes, offset_);
    if (::ftruncate(fd_, static_cast<off_t>(end)) != 0) {
      throw IoError("cannot write output: " + describe_errno(path_, errno));
    }
  }
  if (::lseek(fd_, static_cast<off_t>(end), SEEK_SET) < 0) {
    throw IoError("cannot write output: " + describe_errno(path_, errno));
  }
}

}  // namespace gsort
