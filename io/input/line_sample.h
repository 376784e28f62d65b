// The inputs' mean line length, from a sample: a few windows spread over
// plain regular inputs, read with pread before the sort (their pages come
// into the cache the sort reads from anyway). For the room check's count of
// a spilled sort's chunks, which end at chunk_lines lines as often as at a
// buffer's bytes: an estimate, as the lines past the sample may be shorter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsort {

// Bytes per line (terminator included) in the sample, rounded up; 0 where
// no input can be sampled (not a plain regular file) or the sample holds no
// terminator.
uint64_t sampled_line_length(const std::vector<std::string>& inputs, uint8_t eol);

}  // namespace gsort
