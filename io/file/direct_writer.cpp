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
  const size_t bytes = std::max(kAlignment, (staging_bytes + kAlignment - 1) / kAlignment * kAlignment);
  HostBuffer staging;
  try {
    staging = HostBuffer::allocate_pageable(bytes);  // page-aligned (src/core/host_buffer.h)
  } catch (...) {
    ::close(direct_fd);
    throw;
  }
  return std::unique_ptr<DirectWriter>(
      new DirectWriter(fd, direct_fd, path, std::move(staging), static_cast<uint64_t>(at)));
}

DirectWriter::DirectWriter(int fd, int direct_fd, std::string path, HostBuffer staging, uint64_t offset)
    : fd_(fd), direct_fd_(direct_fd), path_(std::move(path)), staging_(std::move(staging)), offset_(offset) {}

DirectWriter::~DirectWriter() { ::close(direct_fd_); }

void DirectWriter::append(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const size_t take = std::min(n, staging_.size() - fill_);
    std::memcpy(staging_.data() + fill_, p, take);
    fill_ += take;
    p += take;
    n -= take;
    if (fill_ == staging_.size()) write_staged(fill_);
  }
}

void DirectWriter::write_staged(size_t bytes) {
  size_t done = 0;
  while (done < bytes) {
    const ssize_t w = ::pwrite(direct_ ? direct_fd_ : fd_, staging_.data() + done, bytes - done,
                               static_cast<off_t>(offset_ + done));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EINVAL && direct_ && !wrote_) {
      direct_ = false;  // the file system takes no direct writes of this shape: write through the cache
      continue;
    }
    if (w <= 0) throw IoError("cannot write output: " + describe_errno(path_, w < 0 ? errno : ENOSPC));
    wrote_ = true;
    done += static_cast<size_t>(w);
    if (direct_ && done % kAlignment != 0) direct_ = false;  // a short write: the rest is unaligned
  }
  offset_ += bytes;
  fill_ = 0;
}

void DirectWriter::finish() {
  if (finished_) return;
  finished_ = true;
  const uint64_t end = offset_ + fill_;
  if (fill_ > 0) {
    size_t bytes = fill_;
    if (direct_) {  // a whole last block, cut back below
      bytes = (fill_ + kAlignment - 1) / kAlignment * kAlignment;
      std::memset(staging_.data() + fill_, 0, bytes - fill_);
    }
    write_staged(bytes);
    if (::ftruncate(fd_, static_cast<off_t>(end)) != 0) {
      throw IoError("cannot write output: " + describe_errno(path_, errno));
    }
  }
  if (::lseek(fd_, static_cast<off_t>(end), SEEK_SET) < 0) {
    throw IoError("cannot write output: " + describe_errno(path_, errno));
  }
}

}  // namespace gsort
