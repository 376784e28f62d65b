#include "src/lines/sort/index.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace gsort {
namespace {

constexpr uint64_t kBytesPerTask = 1 << 20;  // below this a piece is not worth a task

// Writes the starts of the lines after each terminator in text[begin, end),
// from starts[first] on, at most `room` of them.
void write_starts(const uint8_t* text, uint64_t begin, uint64_t end, uint8_t eol, uint64_t* starts, uint64_t first,
                  uint64_t room) {
  const uint8_t* p = text + begin;
  const uint8_t* stop = text + end;
  for (uint64_t k = 0; k < room && p < stop; ++k) {
    const void* hit = std::memchr(p, eol, static_cast<size_t>(stop - p));
    if (!hit) break;
    p = static_cast<const uint8_t*>(hit) + 1;
    starts[first + k] = static_cast<uint64_t>(p - text);
  }
}

// The longest line of starts[0, lines], terminator included.
uint64_t longest_line(ThreadPool& pool, const uint64_t* starts, uint64_t lines, size_t tasks) {
  std::vector<uint64_t> longest(tasks, 0);
  pool.parallel_for(tasks, [&](size_t t) {
    uint64_t m = 0;
    for (uint64_t i = split_point(lines, tasks, t), e = split_point(lines, tasks, t + 1); i < e; ++i) {
      m = std::max(m, starts[i + 1] - starts[i]);
    }
    longest[t] = m;
  });
  return *std::max_element(longest.begin(), longest.end());
}

}  // namespace

uint64_t count_terminators(const uint8_t* text, uint64_t begin, uint64_t end, uint8_t eol) {
  uint64_t n = 0;
  const uint8_t* p = text + begin;
  const uint8_t* stop = text + end;
  while (p < stop) {
    const void* hit = std::memchr(p, eol, static_cast<size_t>(stop - p));
    if (!hit) break;
    ++n;
    p = static_cast<const uint8_t*>(hit) + 1;
  }
  return n;
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
  pool.parallel_for(tasks, [&](size_t t) {
    counts[t + 1] = count_terminators(text, split_point(bytes, tasks, t), split_point(bytes, tasks, t + 1), eol);
  });
  for (size_t t = 0; t < tasks; ++t) counts[t + 1] += counts[t];  // lines ending before piece t+1
  IndexResult r;
  r.lines = std::min(counts[tasks], max_lines);
  uint64_t* const starts = room(r.lines);
  starts[0] = 0;
  pool.parallel_for(tasks, [&](size_t t) {
    if (counts[t] >= r.lines) return;
    write_starts(text, split_point(bytes, tasks, t), split_point(bytes, tasks, t + 1), eol, starts, counts[t] + 1,
                 r.lines - counts[t]);
  });
  r.bytes = starts[r.lines];
  r.longest = longest_line(pool, starts, r.lines, tasks);
  return r;
}

}  // namespace gsort
