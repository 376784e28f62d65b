// Part of an input file mapped into memory, read-only: the page cache's own
// pages, so no fresh memory is zeroed and nothing is copied. A file cut
// short while it is mapped faults (SIGBUS) where read() would report that it
// shrank; the range is registered so that the fault ends gsort with one line
// and exit 2 (io/temp/temp_registry.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/file/file.h"
#include "src/core/thread_pool.h"

namespace gsort {

class MappedInput {
 public:
  // Bytes [begin, end) of `file`; null where it cannot be mapped (read it then).
  static std::unique_ptr<MappedInput> map(const File& file, uint64_t begin, uint64_t end);
  // Takes over the mapping [base, +length), whose bytes of interest are the
  // last `size` of it, from `bytes` on.
  MappedInput(void* base, size_t length, const uint8_t* bytes, uint64_t size);
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;
  const uint8_t* bytes() const { return bytes_; }
  uint64_t size() const { return size_; }
  // Maps every page now, in pieces on the pool's threads (one thread
  // populating a 12 GB mapping page by page takes seconds). Where the
  // kernel cannot (before Linux 5.14), the pages are mapped as they are read;
  // a failure (an I/O error, a file cut short) is left to the reads.
  void populate(ThreadPool& pool) const;

 private:
  void* base_;
  size_t length_;
  const uint8_t* bytes_;
  uint64_t size_;
  int guard_ = -1;  // its slot in the mapped-input table
};

}  // namespace gsort
