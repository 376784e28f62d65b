// A range of an output file reserved (fallocate) and mapped for writing, so
// that many threads, or the ranks of one host, fill one file at once
// without queueing on its inode: buffered writes to one file take the
// inode's lock one writer at a time, page faults do not
// (docs/benchmarks.md, "Several ranks writing one output file"). The
// reservation comes first, so a full disk is an error before any byte is
// written, not a SIGBUS; a SIGBUS that still comes (the file cut short
// underneath, an I/O error) is one error line and exit 2, through the
// range registered with io/temp/temp_registry.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/core/thread_pool.h"

namespace gsort {

class File;

class MappedOutputRange {
 public:
  // The range [offset, offset + bytes) of the file at `path`, its pages made
  // present on the pool's threads. Null where the file system cannot
  // reserve it (fallocate is not supported) or its pages cannot be made
  // present (populate_on_pool): the caller writes another way then.
  // Throws IoError when the disk has no room or the file cannot be opened.
  static std::unique_ptr<MappedOutputRange> map(const std::string& path, uint64_t offset, uint64_t bytes,
                                                ThreadPool& pool);
  // The same through an open descriptor (kept open: it stays the file's),
  // its pages faulted in by whoever writes them. Null where it cannot be
  // reserved or mapped. With `no_room`, a disk without room to reserve it
  // (ENOSPC, EDQUOT) is null too, and sets *no_room: the file, which must
  // end at `offset`, is cut back there, so that whatever was reserved
  // before the failure is free again for a writer that grows it.
  // `reopen`: where the descriptor is write-only (standard output), the
  // file's name (/proc/self/fd/1) opened read-write for the mmap alone and
  // closed again; null where it cannot be opened so.
  static std::unique_ptr<MappedOutputRange> map(const File& file, uint64_t offset, uint64_t bytes,
                                                bool* no_room = nullptr, const char* reopen = nullptr);
  // A range that grows (grow()) from nothing to at most `max_bytes`: the
  // output of a stream, whose size is known only at its end. All of it is
  // mapped now; only what grow() reserved may be touched. Null where it
  // cannot be mapped. `reopen` as above.
  static std::unique_ptr<MappedOutputRange> map_growing(const File& file, uint64_t offset, uint64_t max_bytes,
                                                        const char* reopen = nullptr);
  ~MappedOutputRange();
  MappedOutputRange(const MappedOutputRange&) = delete;
  MappedOutputRange& operator=(const MappedOutputRange&) = delete;

  // The range's first byte (the file's byte `offset`).
  uint8_t* data() const { return data_; }
  uint64_t size() const { return bytes_; }
  // The most a growing range may grow to (size() for any other).
  uint64_t capacity() const { return capacity_; }
  // Reserves the file up to the range's byte `bytes` (size() <= bytes <=
  // capacity()). False where the file system cannot or the disk has no
  // room: the range must then go unused, and the caller cut the file back
  // to `offset` (a failed reservation may keep part of what it took).
  // Throws IoError on other errors.
  bool grow(uint64_t bytes);
  // Unmaps it; with `fsync`, its bytes are on stable storage first (msync,
  // then fdatasync). With a pool, in pieces on its threads: munmap clears
  // page tables under a shared lock, so the pieces go at once where one
  // munmap of a large written mapping takes a thread tenths of a second.
  void finish(bool fsync, ThreadPool* pool = nullptr);

 private:
  MappedOutputRange(std::string path, int fd, bool owns_fd, void* base, size_t length, uint8_t* data, uint64_t bytes,
                    int guard);
  // Maps [offset, +map_bytes) of map_fd and registers it for SIGBUS; the
  // range holds `bytes` of it. Null where it cannot be mapped; closes an
  // owned fd on every way out but success.
  static std::unique_ptr<MappedOutputRange> map_reserved(const std::string& path, int fd, bool owns_fd, uint64_t offset,
                                                         uint64_t bytes, uint64_t map_bytes, int map_fd);
  // Reserves and maps [offset, +bytes) of fd; null where the file system
  // cannot (or, with no_room, has no room). Closes an owned fd on every way
  // out but success.
  static std::unique_ptr<MappedOutputRange> reserve_and_map(const std::string& path, int fd, bool owns_fd,
                                                            uint64_t offset, uint64_t bytes, bool* no_room, int map_fd);
  void release(ThreadPool* pool = nullptr) noexcept;

  std::string path_;
  int fd_;
  bool owns_fd_;
  void* base_;     // the mapping, from the page holding `offset`
  size_t length_;
  uint8_t* data_;
  uint64_t bytes_;
  uint64_t capacity_;
  uint64_t offset_ = 0;
  int guard_;      // the SIGBUS table's slot
};

}  // namespace gsort
