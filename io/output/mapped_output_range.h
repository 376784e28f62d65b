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
  // reserved or mapped.
  static std::unique_ptr<MappedOutputRange> map(const File& file, uint64_t offset, uint64_t bytes);
  // [0, capacity) of the file through an open descriptor, mapped at once
  // but reserved only as grow_to() says (the output of a stream, whose size
  // is known when it ends). Null where the file system cannot reserve.
  static std::unique_ptr<MappedOutputRange> map_growing(const File& file, uint64_t capacity);
  // Reserves the range up to `bytes` (at most its size). Throws IoError
  // when the disk has no room: nothing past the reserved part is written.
  void grow_to(uint64_t bytes);
  uint64_t reserved() const { return reserved_; }
  ~MappedOutputRange();
  MappedOutputRange(const MappedOutputRange&) = delete;
  MappedOutputRange& operator=(const MappedOutputRange&) = delete;

  // The range's first byte (the file's byte `offset`).
  uint8_t* data() const { return data_; }
  uint64_t size() const { return bytes_; }
  // Unmaps it; with `fsync`, its bytes are on stable storage first (msync,
  // then fdatasync).
  void finish(bool fsync);

 private:
  MappedOutputRange(std::string path, int fd, bool owns_fd, void* base, size_t length, uint8_t* data, uint64_t bytes,
                    int guard);
  static constexpr uint64_t kFirstGrowthBytes = uint64_t{64} << 20;
  // Reserves [offset, +bytes) of fd: false where the file system cannot,
  // IoError where the disk has no room.
  static bool reserve(int fd, const std::string& path, uint64_t offset, uint64_t bytes);
  // Maps [offset, +bytes) of fd; null where it cannot. The reserve_ form
  // reserves it first. Both close an owned fd on every way out but success.
  static std::unique_ptr<MappedOutputRange> map_only(const std::string& path, int fd, bool owns_fd, uint64_t offset,
                                                     uint64_t bytes);
  static std::unique_ptr<MappedOutputRange> reserve_and_map(const std::string& path, int fd, bool owns_fd,
                                                            uint64_t offset, uint64_t bytes);
  void release() noexcept;

  std::string path_;
  int fd_;
  bool owns_fd_;
  void* base_;     // the mapping, from the page holding `offset`
  size_t length_;
  uint8_t* data_;
  uint64_t bytes_;
  uint64_t reserved_;  // [0, reserved_) reserved: the whole range, but for map_growing's
  int guard_;      // the SIGBUS table's slot
};

}  // namespace gsort
