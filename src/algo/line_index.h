// The lines of a chunk: its bytes hold whole lines, each followed by its
// terminator (the reader adds one to a last line that lacks it), and
// starts[i] is where line i begins; starts[count] is the end of the last
// line's terminator. Line i is starts[i] .. starts[i+1]-1 without it.
// A NUL or '\r' in newline mode (or a newline under -z) is a byte of its
// line like any other.
#pragma once

#include <cstdint>
#include <functional>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"

namespace gsort {

struct LineSpan {
  const uint8_t* text = nullptr;
  const uint64_t* starts = nullptr;  // count + 1 entries
  uint64_t count = 0;

  const uint8_t* line(uint64_t i) const { return text + starts[i]; }
  uint64_t length(uint64_t i) const { return starts[i + 1] - starts[i] - 1; }
  uint64_t bytes() const { return starts[count] - starts[0]; }
};

struct IndexResult {
  uint64_t lines = 0;    // lines indexed
  uint64_t bytes = 0;    // bytes they take, terminators included
  uint64_t longest = 0;  // the longest line's bytes, terminator included
  // Where the time went (-v): the terminators counted, then the starts'
  // room asked for and the starts written (their pages first touched).
  double counted_s = 0, written_s = 0;
};

// A chunk's line starts and its order, grown to the lines it holds (no
// larger: the count is known only once the chunk is indexed).
struct LineIndexBuffers {
  HostBuffer starts, order;
  uint64_t lines = 0;  // what they have room for

  uint64_t* start() const { return reinterpret_cast<uint64_t*>(starts.data()); }
  uint32_t* sorted() const { return reinterpret_cast<uint32_t*>(order.data()); }
  // The starts, with room for n lines (n + 1 entries) and their order,
  // from `allocate` where they must grow (index_lines' `room`).
  uint64_t* room_for(uint64_t n, const std::function<HostBuffer(size_t bytes)>& allocate);
};

// Terminators in text[begin, end).
uint64_t count_terminators(const uint8_t* text, uint64_t begin, uint64_t end, uint8_t eol);

// Finds the lines of text[0, bytes), which ends with `eol`, on the pool's
// threads, and writes their starts (lines + 1 entries). Stops after
// max_lines lines: `bytes` of the result then tells where the rest begins.
IndexResult index_lines(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint8_t eol, uint64_t* starts,
                        uint64_t max_lines);
// The same, with the starts' buffer asked of `room` once the lines are
// counted (`lines` + 1 entries), so that it need be no larger.
IndexResult index_lines(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint8_t eol, uint64_t max_lines,
                        const std::function<uint64_t*(uint64_t lines)>& room);

}  // namespace gsort
