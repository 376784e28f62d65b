// A rank's share of the inputs as text lines (issue 55): the inputs taken
// end to end as bytes (ConcatenatedInputs of one-byte records), cut at line
// starts so that no line is split. Rank r's slice starts at the first line
// start at or after r/N of the bytes, and ends where rank r+1's starts: a
// line longer than a share leaves the ranks it spans empty. A line starts
// at byte 0, after a terminator, and at each input's first byte (one
// process adds a terminator to an input's unterminated last line).
#pragma once

#include <cstdint>
#include <string>

#include "io/file/file.h"
#include "src/distributed/partition/input_slice.h"

namespace gsort {

// Where the input holding byte `at` ends (the next input's first byte).
uint64_t input_end(const ConcatenatedInputs& inputs, uint64_t at);

// The first line start at or after byte `at`.
uint64_t line_start_at_or_after(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at);
// The same in `size` bytes in memory (`size` where none).
uint64_t line_start_at_or_after(const uint8_t* bytes, uint64_t size, uint8_t eol, uint64_t at);

// The line starting at byte `at`, without its terminator.
std::string line_at(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at);

// Rank `rank` of `ranks`' slice of `inputs` (one-byte records), lines ending at `eol`.
RecordRange rank_line_slice(const ConcatenatedInputs& inputs, uint8_t eol, int rank, int ranks);

// Writes the slice's lines into `out`, a terminator added where an
// input's last line has none, as one process reads them. Returns the bytes
// written.
uint64_t write_line_slice(const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol, File& out);

}  // namespace gsort
