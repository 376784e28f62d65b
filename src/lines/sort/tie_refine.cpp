#include "src/lines/sort/tie_refine.h"

#include <algorithm>
#include <atomic>

#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/keys/line_image.h"
#include "src/lines/sort/pair_sort.h"

namespace gsort {
namespace {

constexpr uint64_t kLargeSegment = uint64_t{1} << 16;  // at least this many members: refined with all threads

size_t tasks_for(ThreadPool& pool, uint64_t n) {
  return static_cast<size_t>(std::max<uint64_t>(1, std::min<uint64_t>(pool.balanced_task_count(), n >> 12)));
}

// Runs `body(task, begin, end)` over [0, n) in `tasks` ranges: on the
// pool's threads, or (tasks 1) on this one.
template <typename Body>
void for_range(ThreadPool& pool, size_t tasks, uint64_t n, Body body) {
  if (tasks == 1) {
    body(size_t{0}, uint64_t{0}, n);
    return;
  }
  pool.parallel_for(tasks, [&](size_t t) { body(t, split_point(n, tasks, t), split_point(n, tasks, t + 1)); });
}

}  // namespace

std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base,
                                  uint32_t level) {
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
      if (j - i > 1) found[t].push_back({base + i, j - i, depth, level});
      i = j;
    }
  });
  std::vector<TieSegment> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return all;
}

TieRefiner::TieRefiner(const LineSpec& spec, const LineSpan& lines, ThreadPool& pool, const LineCache* cache)
    : compare_(spec), images_(spec.images()), lines_(lines), pool_(pool), cache_(cache) {}

LineImageView TieRefiner::view_of(uint32_t level, uint32_t line) const {
  const LineImageSpec& image = images_[level];
  if (cache_ && level == 0) return view_line_key(image, lines_.text + cache_[line].key_at, cache_[line].key_length);
  return view_line_image(image, lines_.line(line), lines_.length(line));
}

uint64_t TieRefiner::load_words(KeyEntry* e, uint64_t n, uint32_t level, uint64_t depth) const {
  const LineImageSpec& image = images_[level];
  uint64_t longest = 0;
  const bool cached = cache_ && level == 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t line = e[i].index;
    if (cached && (depth == 1 || depth == 2)) {  // the first pass kept words 1 and 2 and the image's length
      longest = std::max<uint64_t>(longest, cache_[line].image_length);
      e[i].prefix = cache_[line].word[depth - 1];
      continue;
    }
    const LineImageView v = view_of(level, line);
    longest = std::max(longest, line_image_length(image, v));
    e[i].prefix = line_image_word(image, v, depth);
  }
  return longest;
}

void TieRefiner::sort_by_comparator(KeyEntry* e, uint64_t n) const {
  const auto less = [this](const KeyEntry& x, const KeyEntry& y) {
    return compare_.compare(lines_.line(x.index), lines_.length(x.index), lines_.line(y.index),
                            lines_.length(y.index)) < 0;
  };
  if (std::is_sorted(e, e + n, less)) return;
  std::stable_sort(e, e + n, less);
}

template <typename Push>
void TieRefiner::settle_spent(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  const LineImageSpec& image = images_[s.level];
  std::atomic<bool> capped{false};
  // Text keys: by length (longer first under 'r'). Numbers: all equal,
  // unless one is too long for the image.
  for_range(pool_, parallel ? tasks_for(pool_, s.size) : 1, s.size, [&](size_t, uint64_t b, uint64_t end) {
    for (uint64_t i = b; i < end; ++i) {
      const uint32_t line = e[i].index;
      uint64_t len = 0;
      if (reads_number(image.key)) {
        // A capped count carries no digits: the image is its header alone.
        const bool too_long = cache_ && s.level == 0 ? cache_[line].image_length == kImageNumberHeader
                                                     : view_of(s.level, line).number.int_digits > kImageCountCap;
        if (too_long) capped.store(true, std::memory_order_relaxed);
      } else {
        len = cache_ && s.level == 0 ? cache_[line].key_length : view_of(s.level, line).len;
      }
      e[i].prefix = image.key.reverse ? ~len : len;
    }
  });
  if (capped.load()) {
    sort_by_comparator(e, s.size);
    return;
  }
  if (!reads_number(image.key)) parallel ? sort_pairs(pool_, e, tmp, s.size) : radix_sort_entries(e, tmp, s.size);
  if (s.level + 1 == images_.size()) return;  // equal in every key: input order
  for (uint64_t i = 0; i < s.size;) {
    uint64_t j = i + 1;
    while (j < s.size && e[j].prefix == e[i].prefix) ++j;
    if (j - i > 1) push(TieSegment{s.begin + i, j - i, 0, s.level + 1});
    i = j;
  }
}

template <typename Push>
void TieRefiner::step(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  KeyEntry* members = e + s.begin;
  std::vector<uint64_t> most(parallel ? tasks_for(pool_, s.size) : 1, 0);
  for_range(pool_, most.size(), s.size, [&](size_t t, uint64_t b, uint64_t end) {
    most[t] = load_words(members + b, end - b, s.level, s.depth);
  });
  settle_loaded(e, tmp, s, *std::max_element(most.begin(), most.end()), parallel, push);
}

template <typename Push>
void TieRefiner::settle_loaded(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, uint64_t longest, bool parallel,
                               Push push) {
  KeyEntry* members = e + s.begin;
  if (longest <= 8 * s.depth) {
    settle_spent(members, tmp + s.begin, s, parallel, push);
    return;
  }
  if (parallel) {
    sort_pairs(pool_, members, tmp + s.begin, s.size);
    for (const TieSegment& r : tied_runs(pool_, members, s.size, s.depth + 1, s.begin, s.level)) push(r);
    return;
  }
  radix_sort_entries(members, tmp + s.begin, s.size);
  for (uint64_t i = 0; i < s.size;) {
    uint64_t j = i + 1;
    while (j < s.size && members[j].prefix == members[i].prefix) ++j;
    if (j - i > 1) push(TieSegment{s.begin + i, j - i, s.depth + 1, s.level});
    i = j;
  }
}

// Where the members of a round's segments are, one after another, for
// loading them with the lines some members ahead already on their way in.
struct TieRefiner::Members {
  const std::vector<TieSegment>& segments;
  const KeyEntry* e;
  size_t k = 0;
  uint64_t i = 0;
  bool valid() const { return k < segments.size(); }
  void next() {
    if (++i == segments[k].size) {
      ++k;
      i = 0;
    }
  }
  uint32_t line() const { return e[segments[k].begin + i].index; }
  uint32_t level() const { return segments[k].level; }
};

void TieRefiner::prefetch_first(const Members& m) const {
  if (!m.valid()) return;
  if (cache_ && m.level() == 0) {
    __builtin_prefetch(cache_ + m.line());
  } else {
    __builtin_prefetch(lines_.starts + m.line());
  }
}

void TieRefiner::prefetch_second(const Members& m) const {
  if (!m.valid()) return;
  const uint32_t line = m.line();
  if (cache_ && m.level() == 0) {
    const uint64_t depth = m.segments[m.k].depth;
    if (depth > 2) __builtin_prefetch(lines_.text + cache_[line].key_at + 8 * depth);  // else the cache holds the word
  } else {
    __builtin_prefetch(lines_.line(line));
  }
}

void TieRefiner::load_round(KeyEntry* e, const std::vector<TieSegment>& segments,
                            std::vector<uint64_t>& longest) const {
  constexpr int kFar = 16, kNear = 6;  // members ahead whose first and second reads are started
  longest.assign(segments.size(), 0);
  Members far{segments, e}, near{segments, e};
  for (int a = 0; a < kFar && far.valid(); ++a) {
    prefetch_first(far);
    far.next();
  }
  for (int a = 0; a < kNear && near.valid(); ++a) {
    prefetch_second(near);
    near.next();
  }
  for (size_t k = 0; k < segments.size(); ++k) {
    const TieSegment& s = segments[k];
    for (uint64_t i = 0; i < s.size; ++i) {
      prefetch_first(far);
      if (far.valid()) far.next();
      prefetch_second(near);
      if (near.valid()) near.next();
      longest[k] = std::max(longest[k], load_words(e + s.begin + i, 1, s.level, s.depth));
    }
  }
}

void TieRefiner::refine_serial(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments) {
  std::vector<TieSegment> next;
  std::vector<uint64_t> longest;
  while (!segments.empty()) {
    load_round(e, segments, longest);
    next.clear();
    for (size_t k = 0; k < segments.size(); ++k) {
      settle_loaded(e, tmp, segments[k], longest[k], false, [&next](const TieSegment& r) { next.push_back(r); });
    }
    segments.swap(next);
  }
}


// A large segment a step at a time with all threads; what it splits into
// goes back to the large ones or into `small`.
void TieRefiner::refine_large(KeyEntry* e, KeyEntry* tmp, TieSegment s, std::vector<TieSegment>& small) {
  std::vector<TieSegment> large{s};
  while (!large.empty()) {
    s = large.back();
    large.pop_back();
    step(e, tmp, s, true, [&](const TieSegment& r) { (r.size >= kLargeSegment ? large : small).push_back(r); });
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
    refine_serial(e, tmp, std::vector<TieSegment>(small.begin() + static_cast<ptrdiff_t>(first[t]),
                                                  small.begin() + static_cast<ptrdiff_t>(first[t + 1])));
  });
}

}  // namespace gsort
