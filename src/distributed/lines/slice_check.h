// -c and -C of a rank's slice of lines where it lies (issue 55): windows of
// the input (slice_window.h), each cut at line starts into tasks checked on
// the pool's threads, the pairs across tasks and windows checked in order.
// No copy of the slice is made: a rank needs no room in -T to check.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/thread_pool.h"
#include "src/distributed/partition/input_slice.h"
#include "src/keys/line_compare.h"
#include "src/verify/sorted_check.h"

namespace gsort {

// A rank's slice checked, of records or lines: its first disorder
// (numbered from the slice's start: the unit and its byte offset), its
// units and bytes (for lines, a terminator added to an input's
// unterminated last line counts), its first and last unit (a line without
// its terminator).
struct SliceCheck {
  CheckResult local;
  uint64_t units = 0, bytes = 0;
  std::string first, last;
};

// Checks `slice` of `inputs` (one-byte records, end to end) by `compare`
// (strictly under its -u). A line longer than max_line bytes, its
// terminator included, is a DataError, as one process's check has it.
// Windows of about window_bytes (a line longer is taken whole).
SliceCheck check_line_slice_in_place(const ConcatenatedInputs& inputs, const RecordRange& slice,
                                     const LineComparator& compare, uint64_t max_line, ThreadPool& pool,
                                     uint64_t window_bytes = uint64_t{64} << 20);

// Whether the `size` bytes of lines at `text` (the last may lack its
// terminator) are in order by `compare` (strictly under its -u): checked in
// tasks on the pool's threads, as a slice is.
bool lines_in_order(const uint8_t* text, uint64_t size, const LineComparator& compare, ThreadPool& pool);

}  // namespace gsort
