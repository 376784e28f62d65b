// Part of an input file mapped into memory, read-only: the page cache's own
// pages, so no fresh memory is zeroed and nothing is copied. A file cut
// short while it is mapped faults (SIGBUS) where read() would report that it
// shrank; the range is registered so that the fault ends gsort with one line
// and exit 2 (io/temp/temp_registry.h). A file written in place while it is
// mapped changes the mapped bytes under the sort: its owner calls
// check_unchanged() after the mapping's last use, before the output is
// committed (io/input/input_change.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/file/file.h"
#include "io/file/file_identity.h"
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
  // From now on check_unchanged() compares `file` (a descriptor of its own
  // is kept) with `identity`, what it was when first opened.
  void watch_for_change(const File& file, const FileIdentity& identity);
  // Throws DataError where the watched file was written since (nothing
  // where none is watched).
  void check_unchanged() const;

 private:
  void* base_;
  size_t length_;
  const uint8_t* bytes_;
  uint64_t size_;
  int guard_ = -1;  // its slot in the mapped-input table
  File watched_;    // watch_for_change's descriptor
  FileIdentity identity_;
};

}  // namespace gsort
