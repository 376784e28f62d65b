// Copies a range of a rank's part file into a file at an offset: the
// rank's share of the single output file, or a part without the record
// that -u drops at a rank boundary.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/thread_pool.h"

namespace gsort {

// Copies `bytes` bytes from `from` at `from_offset` to the existing file
// `to` at `to_offset`, in large blocks. `durable`: flushes `to` to stable
// storage before returning.
void copy_file_range_to(const std::string& from, uint64_t from_offset, uint64_t bytes, const std::string& to,
                        uint64_t to_offset, bool durable);

// The same into a range of the one output file that other ranks fill at
// once: the range mapped (io/output/mapped_output_range.h) and read into
// by all the pool's threads, where pwrite would queue on the file's inode
// lock behind the other ranks and copy twice on one thread; by
// copy_file_range_to where the file system cannot reserve or map it.
void copy_into_range(const std::string& from, uint64_t from_offset, uint64_t bytes, const std::string& to,
                     uint64_t to_offset, bool durable, ThreadPool& pool);

}  // namespace gsort
