// Copies a range of a rank's part file into a file at an offset: the
// rank's share of the single output file, or a part without the record
// that -u drops at a rank boundary.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// Copies `bytes` bytes from `from` at `from_offset` to the existing file
// `to` at `to_offset`, in large blocks. `durable`: flushes `to` to stable
// storage before returning.
void copy_file_range_to(const std::string& from, uint64_t from_offset, uint64_t bytes, const std::string& to,
                        uint64_t to_offset, bool durable);

}  // namespace gsort
