// How a line sort uses its memory budget (-S): half of it holds the text
// of the chunks, the rest their line indexes and the sorter's pairs (and,
// in a sort of several chunks, a held run's write buffers); a line
// may take a quarter. Inputs known to fit one chunk are read into one
// buffer; others into two, of a quarter each: the next chunk is read and
// sorted while the run before it is written. The merge gives each source a
// window of an equal share (with its line index and its share of the
// batch's picks), and spilled runs are written as several streams.
#pragma once

#include <cstdint>

#include "src/pipeline/room_peaks.h"

namespace gsort {

struct LinePlan {
  uint64_t budget = 0;         // -S, raised to kMinLineBudget
  uint64_t max_line = 0;       // the longest line, terminator included
  uint64_t chunk_bytes = 0;    // a chunk's text buffer
  bool double_buffered = false;  // two chunk buffers: one read while the other is spilled
  uint64_t chunk_lines = 0;    // the most lines a chunk holds
  uint64_t block_bytes = 0;    // one write-behind buffer
  // One write-behind buffer of a run held in the GPU's memory: larger, as
  // each block's gather pays for its own hand-over. 12 GB of log lines,
  // -S 2G, H100 host, 2026-12-06: runs written in 2.42 s with blocks of
  // 8 MiB, 1.79 with 64 MiB.
  uint64_t held_block_bytes = 0;
  uint64_t fan_in = 2;         // sources merged at once
  uint64_t memory_fan_in = 2;  // what memory allows of it
  unsigned spill_streams = 1;  // segments a chunk is spilled as, side by side
  // The most run files that wait while a chunk is read: past it the last
  // runs are merged early, so that the waiting files, a spill's and a
  // merge's output stay within the descriptors.
  uint64_t waiting_files = 2;

  // A merge window's buffer when `sources` are merged at once, and the
  // most lines it indexes.
  uint64_t window_bytes(uint64_t sources) const;
  uint64_t window_lines(uint64_t sources) const { return window_bytes(sources) / kWindowBytesPerLine; }
  // A window holds a line per this many bytes at most (its index, 32
  // bytes a line, and picks, 16, take about as much again each).
  static constexpr uint64_t kWindowBytesPerLine = 24;
};

constexpr uint64_t kMinLineBudget = uint64_t{1} << 20;
// Lines spill one stream unless --spill-streams says otherwise: a chunk's
// lines gathered into one writer's larger blocks outran eight streams'
// (docs/benchmarks.md, spill-streams, lines, 2026-11-27).
constexpr unsigned kDefaultLineSpillStreams = 1;

// bytes_per_line: what the sorter holds per line; known_bytes: the inputs'
// size when known (0: unknown), which caps the chunk; batch_size:
// --batch-size (0: not given); descriptors: those the runs' files may hold
// (free_descriptors: a merge holds its sources' and its output's, a run
// waiting its segments'; at least 3); streams: --spill-streams (0: the
// default), at most a quarter of the descriptors.
LinePlan plan_lines(uint64_t budget, uint64_t bytes_per_line, uint64_t known_bytes, uint64_t inputs,
                    uint64_t batch_size, uint64_t descriptors, unsigned streams);

// The runs a spilled sort of `bytes` of lines from `inputs` inputs writes
// (as they would be written plain), for the room check. With the lines'
// mean length from a sample (line_length: io/input/line_sample.h),
// the chunks they fill and the merges into runs that passes make of them,
// whose largest source bounds what each merge holds read. Without it (0),
// or where runs would wait to be merged early (more than
// plan.waiting_files), the worst case: a chunk ends at the last line that
// fits a read of more than max_line bytes, or holds chunk_lines lines, so
// any two in a row hold a read's bytes or one of them chunk_lines lines of
// one byte; a merged run may hold every byte.
RunsRoom line_runs_room(const LinePlan& plan, uint64_t bytes, uint64_t inputs, uint64_t line_length = 0);

}  // namespace gsort
