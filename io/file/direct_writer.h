// Sequential writes that go around the page cache: appended bytes are
// staged in aligned buffers and written with O_DIRECT, through a second
// descriptor of the same file, in whole blocks. For an output larger than
// the memory the page cache may take (a memory-limited cgroup): there a
// buffered write() stream, paced or not, waits on writeback and reclaim,
// where direct writes of large blocks go at the disk's speed and leave no
// dirty page behind.
//
// Two staging buffers: while a thread of its own writes one, append()
// fills the other, so that copying and writing overlap. finish() writes
// the last partial block padded to the alignment, cuts the file back to
// what was appended and puts the first descriptor's offset at the end, as
// write() would have left it. Where the file system refuses O_DIRECT
// (some overlays, tmpfs before Linux 6.6) open() gives null; a refusal of
// the first write, or a short write, turns the rest into ordinary pwrite()s.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "src/core/host_buffer.h"

namespace gsort {

class DirectWriter {
 public:
  static constexpr size_t kAlignment = 4096;  // a multiple of every logical block size in use

  // For file `fd` (named `path` in messages), from its current offset,
  // which must be aligned; `staging_bytes` (both buffers) is rounded to
  // the alignment. Null where the file cannot be opened for direct writes.
  static std::unique_ptr<DirectWriter> open(int fd, const std::string& path, size_t staging_bytes);
  ~DirectWriter();  // stops its thread and closes its own descriptor; never throws
  DirectWriter(const DirectWriter&) = delete;
  DirectWriter& operator=(const DirectWriter&) = delete;

  // Rethrows an error of an earlier block's write.
  void append(const void* data, size_t n);
  // Writes what is staged and settles the file's size and offset. Once.
  void finish();
  // Whether writes still bypass the cache (false after a fallback).
  bool direct() const;

 private:
  DirectWriter(int fd, int direct_fd, std::string path, HostBuffer staging, uint64_t offset);
  void writer_loop();
  // Hands buffer `current_` (its `bytes`) to the writer thread and waits
  // until the other buffer is free; rethrows the writer's error.
  void submit(size_t bytes);
  void wait_idle(std::unique_lock<std::mutex>& lock);
  // Writes `bytes` of `data` at `offset` (the writer thread, or finish()).
  void write_block(const uint8_t* data, size_t bytes, uint64_t offset);

  const int fd_;
  const int direct_fd_;
  const std::string path_;
  HostBuffer staging_;  // two halves of half_ bytes
  const size_t half_;
  unsigned current_ = 0;  // the half append() fills
  size_t fill_ = 0;
  uint64_t offset_;       // the file offset of the current half's first byte
  bool finished_ = false;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  const uint8_t* pending_ = nullptr;  // the block the writer thread is to write, or null
  size_t pending_bytes_ = 0;
  uint64_t pending_offset_ = 0;
  bool busy_ = false;                 // the writer thread is inside write_block
  bool stop_ = false;
  std::exception_ptr error_;
  bool direct_ = true;   // under mutex_ (the writer thread may fall back)
  bool wrote_ = false;   // a write succeeded: an EINVAL after that is an error, not a refusal
  std::thread thread_;   // last: starts once the members above exist
};

}  // namespace gsort
