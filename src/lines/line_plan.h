// How a line sort uses its memory budget (-S): half of it holds the text
// of the chunks, the rest their line indexes and the sorter's pairs; a line
// may take a quarter. Inputs known to fit one chunk are read into one
// buffer; others into two, of a quarter each, so that the next chunk is
// read while one is sorted and spilled. The merge gives each source an
// equal share.
#pragma once

#include <cstdint>

namespace gsort {

struct LinePlan {
  uint64_t budget = 0;         // -S, raised to kMinLineBudget
  uint64_t max_line = 0;       // the longest line, terminator included
  uint64_t chunk_bytes = 0;    // a chunk's text buffer
  bool double_buffered = false;  // two chunk buffers: one read while the other is sorted
  uint64_t chunk_lines = 0;    // the most lines a chunk holds
  uint64_t block_bytes = 0;    // one write-behind buffer
  uint64_t fan_in = 2;         // sources merged at once
  uint64_t source_bytes = 0;   // a merge source's buffer (grows for a longer line)
};

constexpr uint64_t kMinLineBudget = uint64_t{1} << 20;

// bytes_per_line: what the sorter holds per line; known_bytes: the inputs'
// size when known (0: unknown), which caps the chunk; batch_size:
// --batch-size (0: not given); descriptors: those free for merge sources.
LinePlan plan_lines(uint64_t budget, uint64_t bytes_per_line, uint64_t known_bytes, uint64_t inputs,
                    uint64_t batch_size, uint64_t descriptors);

}  // namespace gsort
