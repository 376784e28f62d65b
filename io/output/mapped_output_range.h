// A rank's range of the one shared output file, reserved (fallocate) and
// mapped for writing with its pages made present on the pool, so that the
// ranks of one host fill one file without queueing on its inode: buffered
// writes to one file take the inode's lock one writer at a time, page
// faults do not (docs/benchmarks.md, "Several ranks writing one output file").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/core/thread_pool.h"

namespace gsort {

class MappedOutputRange {
 public:
  // Null where the filesystem cannot reserve the range (fallocate is not
  // supported) or its pages cannot be made present up front
  // (populate_on_pool): the caller writes with pwrite then.
  // Throws IoError when the disk has no room or the file cannot be opened.
  static std::unique_ptr<MappedOutputRange> map(const std::string& path, uint64_t offset, uint64_t bytes,
                                                ThreadPool& pool);
  ~MappedOutputRange();
  MappedOutputRange(const MappedOutputRange&) = delete;
  MappedOutputRange& operator=(const MappedOutputRange&) = delete;

  // The range's first byte (the file's byte `offset`).
  uint8_t* data() const { return data_; }
  uint64_t size() const { return bytes_; }
  // Unmaps it; with `fsync`, its bytes are on stable storage first.
  void finish(bool fsync);

 private:
  MappedOutputRange(std::string path, int fd, void* base, size_t length, uint8_t* data, uint64_t bytes, int guard);
  void release() noexcept;

  std::string path_;
  int fd_;
  void* base_;     // the mapping, from the page holding `offset`
  size_t length_;
  uint8_t* data_;
  uint64_t bytes_;
  int guard_;      // the SIGBUS table's slot
};

}  // namespace gsort
