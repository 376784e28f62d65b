// How a line sort uses its memory budget (-S): half of it holds the text
// of the chunks, the rest their line indexes and the sorter's pairs; a line
// may take a quarter. Inputs known to fit one chunk are read into one
// buffer; others into two, of a quarter each: the next chunk is read and
// sorted while the run before it is written. The merge gives each source a
// window of an equal share (with its line index and its share of the
// batch's picks), and spilled runs are written as several streams.
#pragma once

#include <cstdint>

namespace gsort {

struct LinePlan {
  uint64_t budget = 0;         // -S, raised to kMinLineBudget
  uint64_t max_line = 0;       // the longest line, terminator included
  uint64_t chunk_bytes = 0;    // a chunk's text buffer
  bool double_buffered = false;  // two chunk buffers: one read while the other is spilled
  uint64_t chunk_lines = 0;    // the most lines a chunk holds
  uint64_t block_bytes = 0;    // one write-behind buffer
  uint64_t fan_in = 2;         // sources merged at once
  unsigned spill_streams = 1;  // segments a chunk is spilled as, side by side

  // A merge window's buffer when `sources` are merged at once, and the
  // most lines it indexes.
  uint64_t window_bytes(uint64_t sources) const;
  uint64_t window_lines(uint64_t sources) const { return window_bytes(sources) / kWindowBytesPerLine; }
  // A window holds a line per this many bytes at most (its index, 32
  // bytes a line, and picks, 16, take about as much again each).
  static constexpr uint64_t kWindowBytesPerLine = 24;
};

constexpr uint64_t kMinLineBudget = uint64_t{1} << 20;

// bytes_per_line: what the sorter holds per line; known_bytes: the inputs'
// size when known (0: unknown), which caps the chunk; batch_size:
// --batch-size (0: not given); descriptors: those free for merge sources;
// streams: --spill-streams (0: the default).
LinePlan plan_lines(uint64_t budget, uint64_t bytes_per_line, uint64_t known_bytes, uint64_t inputs,
                    uint64_t batch_size, uint64_t descriptors, unsigned streams);

}  // namespace gsort
