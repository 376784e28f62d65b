// Sequential writes that go around the page cache: appended bytes are
// staged in an aligned buffer and written with O_DIRECT, through a second
// descriptor of the same file, in whole blocks. For an output larger than
// the memory the page cache may take (a memory-limited cgroup): there a
// buffered write() stream, paced or not, waits on writeback and reclaim,
// where direct writes of large blocks go at the disk's speed and leave no
// dirty page behind.
//
// finish() writes the last partial block padded to the alignment, cuts the
// file back to what was appended and puts the first descriptor's offset at
// the end, as write() would have left it. Where the file system refuses
// O_DIRECT (tmpfs, some overlays) open() gives null; a refusal of the first
// write, or a short write, turns the rest into ordinary pwrite()s.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "src/core/host_buffer.h"

namespace gsort {

class DirectWriter {
 public:
  static constexpr size_t kAlignment = 4096;  // a multiple of every logical block size in use

  // For file `fd` (named `path` in messages), from its current offset,
  // which must be aligned; `staging_bytes` is rounded up to the alignment.
  // Null where the file cannot be opened for direct writes.
  static std::unique_ptr<DirectWriter> open(int fd, const std::string& path, size_t staging_bytes);
  ~DirectWriter();  // closes its own descriptor; never throws
  DirectWriter(const DirectWriter&) = delete;
  DirectWriter& operator=(const DirectWriter&) = delete;

  void append(const void* data, size_t n);
  // Writes what is staged and settles the file's size and offset. Once.
  void finish();
  // Whether writes still bypass the cache (false after a fallback).
  bool direct() const { return direct_; }

 private:
  DirectWriter(int fd, int direct_fd, std::string path, HostBuffer staging, uint64_t offset);
  // Writes staging_[0, bytes) at offset_ and moves offset_ past it.
  void write_staged(size_t bytes);

  int fd_;
  int direct_fd_;
  std::string path_;
  HostBuffer staging_;
  size_t fill_ = 0;
  uint64_t offset_;  // the file offset of staging_'s first byte
  bool direct_ = true;
  bool wrote_ = false;  // a write succeeded: an EINVAL after that is an error, not a refusal
  bool finished_ = false;
};

}  // namespace gsort
