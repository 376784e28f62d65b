#include "src/distributed/lines/window_router.h"

#include <algorithm>
#include <cstring>

#include "src/distributed/lines/line_slice.h"

namespace gsort {

WindowRouter::WindowRouter(const LineRouter& router, uint8_t eol, int ranks, int me, ThreadPool& pool,
                           std::vector<bool> marked)
    : router_(router),
      eol_(eol),
      ranks_(static_cast<size_t>(ranks)),
      me_(static_cast<size_t>(me)),
      pool_(pool),
      marked_(std::move(marked)),
      marking_(std::find(marked_.begin(), marked_.end(), true) != marked_.end()),
      buckets_(ranks_),
      sizes_(ranks_) {}

void WindowRouter::route(const uint8_t* w, uint64_t size, uint64_t place, const OwnPlace& own) {
  const size_t tasks = pool_.balanced_task_count();
  runs_.assign(tasks, {});
  bytes_.assign(tasks, std::vector<uint64_t>(ranks_, 0));
  std::vector<uint64_t> starts(tasks + 1, size);
  for (size_t t = 0; t < tasks; ++t) starts[t] = line_start_at_or_after(w, size, eol_, split_point(size, tasks, t));
  for (size_t t = 1; t <= tasks; ++t) starts[t] = std::max(starts[t], starts[t - 1]);
  task_begin_.assign(starts.begin(), starts.end() - 1);
  marks_.assign(marking_ ? tasks : 0, {});
  pool_.parallel_for(tasks, [&](size_t t) { find_ranks(w, starts[t], starts[t + 1], place, t); });
  // Where each task's lines go in each bucket.
  std::vector<std::vector<uint64_t>> at(tasks, std::vector<uint64_t>(ranks_, 0));
  std::fill(sizes_.begin(), sizes_.end(), 0);
  for (size_t t = 0; t < tasks; ++t) {
    for (size_t d = 0; d < ranks_; ++d) {
      at[t][d] = sizes_[d];
      sizes_[d] += bytes_[t][d];
    }
  }
  std::vector<uint8_t*> to(ranks_, nullptr);
  own_placed_ = false;
  for (size_t d = 0; d < ranks_; ++d) {
    if (d == me_ && own && sizes_[d] != 0 && (to[d] = own(sizes_[d])) != nullptr) {
      own_placed_ = true;
      continue;
    }
    if (marked_[d]) continue;
    // A quarter more than this window needs, for the windows after it.
    if (buckets_[d].size() < sizes_[d]) buckets_[d] = HostBuffer::allocate_pageable(sizes_[d] + sizes_[d] / 4);
    to[d] = buckets_[d].data();
  }
  pool_.parallel_for(tasks, [&](size_t t) {
    for (const RoutedRun& r : runs_[t]) {
      const size_t d = static_cast<size_t>(r.rank);
      std::memcpy(to[d] + at[t][d], w + r.begin, r.bytes);
      at[t][d] += r.bytes;
    }
  });
}

void WindowRouter::find_ranks(const uint8_t* w, uint64_t begin, uint64_t end, uint64_t place, size_t t) {
  std::vector<RoutedRun>& runs = runs_[t];
  for (uint64_t at = begin; at < end;) {
    const uint8_t* line = w + at;
    const auto* stop = static_cast<const uint8_t*>(std::memchr(line, eol_, end - at));
    const uint64_t length = static_cast<uint64_t>(stop - line);  // every line of a window ends with one
    const int d = router_.rank_of(line, length, place + at);
    if (!runs.empty() && runs.back().rank == d && runs.back().begin + runs.back().bytes == at) {
      runs.back().bytes += length + 1;
    } else if (!marked_[static_cast<size_t>(d)]) {
      runs.push_back(RoutedRun{at, length + 1, d});
    }
    if (marking_) marks_[t].push_back(static_cast<uint8_t>(d));
    bytes_[t][static_cast<size_t>(d)] += length + 1;
    at += length + 1;
  }
}

}  // namespace gsort
