#include "src/distributed/lines/line_marks.h"

#include <cstring>

#include "src/core/errors.h"

namespace gsort {
namespace {

// The most ranks a mark names.
constexpr int kMostMarkedRanks = 256;

[[noreturn]] void not_marks(const char* what) {
  throw Error(std::string("internal error: a window's marks do not fit it: ") + what);
}

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  const size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

uint64_t get_u64(const std::vector<uint8_t>& in, size_t& at) {
  if (at > in.size() || in.size() - at < sizeof(uint64_t)) not_marks("the message is cut short");
  uint64_t v = 0;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// Consecutive lines of a task marked for this rank.
struct MarkedRun {
  uint64_t begin = 0;
  uint64_t bytes = 0;
};

}  // namespace

bool any_ranks_trade_marks(const InputViews& views, ExchangeChoice exchange) {
  const bool shared_memory = exchange == ExchangeChoice::kAuto || exchange == ExchangeChoice::kShm;
  // Fewer views than ranks: some two ranks share one.
  return shared_memory && views.ranks() <= kMostMarkedRanks && views.views() < views.ranks();
}

std::vector<bool> ranks_sent_marks(const InputViews& views, int me, ExchangeChoice exchange) {
  const int ranks = views.ranks();
  std::vector<bool> marked(static_cast<size_t>(ranks), false);
  if (!any_ranks_trade_marks(views, exchange)) return marked;
  for (int r = 0; r < ranks; ++r) marked[static_cast<size_t>(r)] = r != me && views.view_of(r) == views.view_of(me);
  return marked;
}

std::vector<uint8_t> encode_marks(uint64_t place, uint64_t stop, uint64_t size, const std::vector<uint64_t>& task_begin,
                                  const std::vector<std::vector<uint8_t>>& marks) {
  std::vector<uint8_t> out;
  uint64_t lines = 0;
  for (const std::vector<uint8_t>& m : marks) lines += m.size();
  out.reserve(8 * (4 + 2 * task_begin.size()) + lines);
  put_u64(out, place);
  put_u64(out, stop);
  put_u64(out, size);
  put_u64(out, task_begin.size());
  uint64_t first = 0;
  for (size_t t = 0; t < task_begin.size(); ++t) {
    put_u64(out, task_begin[t]);
    put_u64(out, first);
    first += marks[t].size();
  }
  for (const std::vector<uint8_t>& m : marks) out.insert(out.end(), m.begin(), m.end());
  return out;
}

WindowMarks decode_marks(const std::vector<uint8_t>& message) {
  WindowMarks m;
  size_t at = 0;
  m.place = get_u64(message, at);
  m.stop = get_u64(message, at);
  m.size = get_u64(message, at);
  const uint64_t tasks = get_u64(message, at);
  if (m.stop < m.place || tasks > (message.size() - at) / 16) not_marks("its header");
  for (uint64_t t = 0; t < tasks; ++t) {
    m.task_begin.push_back(get_u64(message, at));
    m.first_line.push_back(get_u64(message, at));
    if (m.task_begin.back() > m.size || (t > 0 && (m.task_begin[t] < m.task_begin[t - 1] ||
                                                   m.first_line[t] < m.first_line[t - 1]))) {
      not_marks("its tasks");
    }
  }
  // The tasks cover the window from its first byte and line.
  if (tasks == 0 ? m.size != 0 : m.task_begin[0] != 0 || m.first_line[0] != 0) not_marks("its tasks");
  m.task_begin.push_back(m.size);
  m.first_line.push_back(message.size() - at);
  if (tasks > 0 && m.first_line[tasks - 1] > m.first_line[tasks]) not_marks("its lines");
  m.marks = message.data() + at;
  return m;
}

uint64_t take_marked_lines(const uint8_t* text, const WindowMarks& m, uint8_t eol, int me, ThreadPool& pool,
                           const std::function<uint8_t*(uint64_t)>& place, HostBuffer& spill, bool* placed) {
  const size_t tasks = m.task_begin.size() - 1;
  const uint8_t mine = static_cast<uint8_t>(me);
  std::vector<std::vector<MarkedRun>> runs(tasks);
  std::vector<uint64_t> bytes(tasks, 0);
  std::vector<char> fits(tasks, 1);
  pool.parallel_for(tasks, [&](size_t t) {
    uint64_t line = m.first_line[t], mine_bytes = 0;  // (stored once: bytes[t] shares a cache line with its neighbours)
    const uint64_t end = m.task_begin[t + 1];
    for (uint64_t at = m.task_begin[t]; at < end; ++line) {
      const auto* stop = static_cast<const uint8_t*>(std::memchr(text + at, eol, end - at));
      if (stop == nullptr || line >= m.first_line[t + 1]) {
        fits[t] = 0;
        return;
      }
      const uint64_t length = static_cast<uint64_t>(stop - text) - at + 1;
      if (m.marks[line] == mine) {
        if (!runs[t].empty() && runs[t].back().begin + runs[t].back().bytes == at) {
          runs[t].back().bytes += length;
        } else {
          runs[t].push_back(MarkedRun{at, length});
        }
        mine_bytes += length;
      }
      at += length;
    }
    bytes[t] = mine_bytes;
    if (line != m.first_line[t + 1]) fits[t] = 0;
  });
  uint64_t total = 0;
  std::vector<uint64_t> to(tasks, 0);
  for (size_t t = 0; t < tasks; ++t) {
    if (!fits[t]) not_marks("its lines differ from the input's");
    to[t] = total;
    total += bytes[t];
  }
  *placed = false;
  if (total == 0) return 0;
  uint8_t* into = place(total);
  *placed = into != nullptr;
  if (!*placed) {
    if (spill.size() < total) spill = HostBuffer::allocate_pageable(total + total / 4);
    into = spill.data();
  }
  pool.parallel_for(tasks, [&](size_t t) {
    for (const MarkedRun& r : runs[t]) {
      std::memcpy(into + to[t], text + r.begin, r.bytes);
      to[t] += r.bytes;
    }
  });
  return total;
}

}  // namespace gsort
