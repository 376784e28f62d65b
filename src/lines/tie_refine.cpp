#include "src/lines/tie_refine.h"

#include <algorithm>

#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/keys/line_image.h"
#include "src/lines/pair_sort.h"

namespace gsort {
namespace {

constexpr uint64_t kLargeSegment = uint64_t{1} << 16;  // at least this many members: refined with all threads

size_t tasks_for(ThreadPool& pool, uint64_t n) {
  return static_cast<size_t>(std::max<uint64_t>(1, std::min<uint64_t>(pool.balanced_task_count(), n >> 12)));
}

}  // namespace

std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base) {
  const size_t tasks = tasks_for(pool, n);
  std::vector<std::vector<TieSegment>> found(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    // A task takes the runs that start in its range.
    uint64_t i = split_point(n, tasks, t);
    const uint64_t end = split_point(n, tasks, t + 1);
    while (i > 0 && i < end && e[i].prefix == e[i - 1].prefix) ++i;
    while (i < end) {
      uint64_t j = i + 1;
      while (j < n && e[j].prefix == e[i].prefix) ++j;
      if (j - i > 1) found[t].push_back({base + i, j - i, depth});
      i = j;
    }
  });
  std::vector<TieSegment> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return all;
}

TieRefiner::TieRefiner(const LineSpec& spec, const LineSpan& lines, ThreadPool& pool)
    : compare_(spec), image_(spec.image()), lines_(lines), pool_(pool) {}

uint64_t TieRefiner::load_words(KeyEntry* e, uint64_t n, uint64_t depth) const {
  uint64_t longest = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t line = e[i].index;
    const LineImageView v = view_line_image(image_, lines_.line(line), lines_.length(line));
    longest = std::max(longest, line_image_length(image_, v));
    e[i].prefix = line_image_word(image_, v, depth);
  }
  return longest;
}

uint64_t TieRefiner::load_words_parallel(KeyEntry* e, uint64_t n, uint64_t depth) {
  const size_t tasks = tasks_for(pool_, n);
  std::vector<uint64_t> longest(tasks, 0);
  pool_.parallel_for(tasks, [&](size_t t) {
    const uint64_t b = split_point(n, tasks, t);
    longest[t] = load_words(e + b, split_point(n, tasks, t + 1) - b, depth);
  });
  return *std::max_element(longest.begin(), longest.end());
}

void TieRefiner::sort_by_comparator(KeyEntry* e, uint64_t n) const {
  const auto less = [this](const KeyEntry& x, const KeyEntry& y) {
    return compare_.compare(lines_.line(x.index), lines_.length(x.index), lines_.line(y.index),
                            lines_.length(y.index)) < 0;
  };
  // Often all equal (repeated lines): one pass tells.
  if (std::is_sorted(e, e + n, less)) return;
  std::stable_sort(e, e + n, less);
}

void TieRefiner::refine_one(KeyEntry* e, KeyEntry* tmp, const TieSegment& segment) const {
  std::vector<TieSegment> stack{segment};
  while (!stack.empty()) {
    const TieSegment s = stack.back();
    stack.pop_back();
    KeyEntry* members = e + s.begin;
    if (load_words(members, s.size, s.depth) <= 8 * s.depth) {
      sort_by_comparator(members, s.size);
      continue;
    }
    radix_sort_entries(members, tmp + s.begin, s.size);
    for (uint64_t i = 0; i < s.size;) {
      uint64_t j = i + 1;
      while (j < s.size && members[j].prefix == members[i].prefix) ++j;
      if (j - i > 1) stack.push_back({s.begin + i, j - i, s.depth + 1});
      i = j;
    }
  }
}

// One step of a large segment with all threads; what it splits into goes
// back to the large ones or into `small`.
void TieRefiner::refine_large(KeyEntry* e, KeyEntry* tmp, TieSegment s, std::vector<TieSegment>& small) {
  std::vector<TieSegment> large{s};
  while (!large.empty()) {
    s = large.back();
    large.pop_back();
    KeyEntry* members = e + s.begin;
    if (load_words_parallel(members, s.size, s.depth) <= 8 * s.depth) {
      sort_by_comparator(members, s.size);
      continue;
    }
    sort_pairs(pool_, members, tmp + s.begin, s.size);
    for (const TieSegment& r : tied_runs(pool_, members, s.size, s.depth + 1, s.begin)) {
      (r.size >= kLargeSegment ? large : small).push_back(r);
    }
  }
}

void TieRefiner::refine(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments) {
  std::vector<TieSegment> small;
  for (const TieSegment& s : segments) {
    if (s.size >= kLargeSegment && pool_.size() > 1) {
      refine_large(e, tmp, s, small);
    } else {
      small.push_back(s);
    }
  }
  // Groups of small segments of about equal total size, one task each.
  const size_t tasks = std::min<size_t>(small.size(), pool_.balanced_task_count());
  if (tasks == 0) return;
  uint64_t total = 0;
  for (const TieSegment& s : small) total += s.size;
  std::vector<size_t> first(tasks + 1, small.size());
  first[0] = 0;
  uint64_t seen = 0;
  for (size_t i = 0, t = 1; i < small.size() && t < tasks; ++i) {
    seen += small[i].size;
    while (t < tasks && seen >= split_point(total, tasks, t)) first[t++] = i + 1;
  }
  pool_.parallel_for(tasks, [&](size_t t) {
    for (size_t i = first[t]; i < first[t + 1]; ++i) refine_one(e, tmp, small[i]);
  });
}

}  // namespace gsort
