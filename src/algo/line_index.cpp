#include "src/algo/line_index.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "src/algo/byte_scan.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

constexpr uint64_t kBytesPerTask = 1 << 20;  // below this a piece is not worth a task

// Writes the starts of the lines after each terminator in text[begin, end),
// from starts[first] on, at most `room` of them; returns the longest of the
// lines that both begin and end there (terminator included).
uint64_t write_starts(const uint8_t* text, uint64_t begin, uint64_t end, uint8_t eol, uint64_t* starts,
                      uint64_t first, uint64_t room) {
  uint64_t* at = starts + first;
  uint64_t* const stop = at + room;
  uint64_t longest = 0;
  for_each_byte(text + begin, end - begin, eol, [&](uint64_t offset) {
    const uint64_t start = begin + offset + 1;
    if (at != starts + first) longest = std::max(longest, start - at[-1]);
    *at++ = start;
    return at != stop;
  });
  return longest;
}

}  // namespace

uint64_t count_terminators(const uint8_t* text, uint64_t begin, uint64_t end, uint8_t eol) {
  return count_byte(text + begin, end - begin, eol);
}

uint64_t* LineIndexBuffers::room_for(uint64_t n, const std::function<HostBuffer(size_t bytes)>& allocate) {
  if (n > lines || !starts) {
    starts = HostBuffer();
    order = HostBuffer();
    starts = allocate((n + 1) * sizeof(uint64_t));
    order = allocate(std::max<uint64_t>(n, 1) * sizeof(uint32_t));
    lines = n;
  }
  return start();
}

IndexResult index_lines(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint8_t eol, uint64_t* starts,
                        uint64_t max_lines) {
  return index_lines(pool, text, bytes, eol, max_lines, [starts](uint64_t) { return starts; });
}

IndexResult index_lines(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint8_t eol, uint64_t max_lines,
                        const std::function<uint64_t*(uint64_t lines)>& room) {
  const size_t tasks = std::max<size_t>(1, std::min<uint64_t>(pool.balanced_task_count(), bytes / kBytesPerTask));
  std::vector<uint64_t> counts(tasks + 1, 0);
  Stopwatch took;
  pool.parallel_for(tasks, [&](size_t t) {
    counts[t + 1] = count_terminators(text, split_point(bytes, tasks, t), split_point(bytes, tasks, t + 1), eol);
  });
  for (size_t t = 0; t < tasks; ++t) counts[t + 1] += counts[t];  // lines ending before piece t+1
  IndexResult r;
  r.counted_s = took.lap();
  r.lines = std::min(counts[tasks], max_lines);
  uint64_t* const starts = room(r.lines);
  starts[0] = 0;
  // Each task's longest line among those it holds whole; the line that
  // runs into a task from the one before is measured after.
  std::vector<uint64_t> longest(tasks, 0);
  pool.parallel_for(tasks, [&](size_t t) {
    if (counts[t] >= r.lines) return;
    longest[t] = write_starts(text, split_point(bytes, tasks, t), split_point(bytes, tasks, t + 1), eol, starts,
                              counts[t] + 1, r.lines - counts[t]);
  });
  r.written_s = took.lap();
  r.bytes = starts[r.lines];
  r.longest = *std::max_element(longest.begin(), longest.end());
  for (size_t t = 0; t < tasks; ++t) {
    const uint64_t line = counts[t];  // the first to end in piece t
    if (line < r.lines) r.longest = std::max(r.longest, starts[line + 1] - starts[line]);
  }
  return r;
}

}  // namespace gsort
