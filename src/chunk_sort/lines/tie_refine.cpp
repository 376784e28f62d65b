#include "src/chunk_sort/lines/tie_refine.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/chunk_sort/lines/comparison_sort.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_image.h"

namespace gsort {
namespace {

constexpr uint64_t kLargeSegment = uint64_t{1} << 16;  // at least this many members: refined with all threads

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

TieRefiner::TieRefiner(const LineSpec& spec, const LineSpan& lines, ThreadPool& pool, LineCache* cache,
                       CachedWords cached)
    : compare_(spec),
      images_(spec.images()),
      lines_(lines),
      pool_(pool),
      cache_(cache),
      cached_(cached) {
  for (const LineImageSpec& image : images_) by_line_.push_back(image_is_line_itself(image));
}

LineImageView TieRefiner::view_of(uint32_t level, uint32_t line, uint64_t* located) const {
  const LineImageSpec& image = images_[level];
  const LineCache c = entry(level, line);
  if (c.key_length == kUnplaced) {
    ++*located;
    return view_line_image(image, lines_.line(line), lines_.length(line));
  }
  if (reads_number(image.key)) ++*located;
  return view_line_key(image, lines_.text + c.key_at, c.key_length);
}

void TieRefiner::place(uint32_t level, uint32_t line) const {
  if (needs_no_place(level)) return;
  const LineImageSpec& image = images_[level];
  if (line_order(image.key) == LineOrder::kCollate) {  // where the key lies; its head is read by sort_by_heads
    uint64_t begin = 0, end = 0;
    line_key_extent(lines_.line(line), lines_.length(line), image.key, image.separator, &begin, &end);
    LineCache& c = cache_[line];
    c.key_at = static_cast<uint64_t>(lines_.line(line) + begin - lines_.text);
    c.key_length = end - begin < kUnplaced ? static_cast<uint32_t>(end - begin) : kUnplaced;
    c.image_length = static_cast<uint32_t>(kImageHeadBytes);
    return;
  }
  const LineImageView v = view_line_image(image, lines_.line(line), lines_.length(line));
  const uint64_t length = line_image_length(image, v);
  const bool fits = v.len < kUnplaced && length < kUnplaced;
  LineCache& c = cache_[line];
  c.key_at = static_cast<uint64_t>(v.key - lines_.text);
  c.key_length = fits ? static_cast<uint32_t>(v.len) : kUnplaced;
  c.image_length = fits ? static_cast<uint32_t>(length) : kUnplaced;
}

void TieRefiner::place_range(uint32_t level, const KeyEntry* e, uint64_t n) const {
  constexpr uint64_t kFar = 16, kNear = 8;  // members ahead whose start, then line, are on their way in
  for (uint64_t i = 0; i < n; ++i) {
    if (i + kFar < n) __builtin_prefetch(lines_.starts + e[i + kFar].index);
    if (i + kNear < n) __builtin_prefetch(lines_.line(e[i + kNear].index));
    place(level, e[i].index);
  }
}

void TieRefiner::place_members(const KeyEntry* e, const std::vector<TieSegment>& segments, bool parallel) {
  // Neighbouring segments of one level are placed as one range, so that
  // the lines of members ahead are on their way in across small segments.
  std::vector<TieSegment> todo;
  uint64_t total = 0;
  for (const TieSegment& s : segments) {
    if (cached_.placed(s.level) || needs_no_place(s.level)) continue;
    total += s.size;
    TieSegment* last = todo.empty() ? nullptr : &todo.back();
    if (last && last->level == s.level && last->begin + last->size == s.begin) {
      last->size += s.size;
    } else {
      todo.push_back(s);
    }
  }
  if (todo.empty()) return;
  // A task places members [b, end) of the segments' members counted in order.
  for_range(pool_, parallel ? refine_tasks(pool_, total) : 1, total, [&](size_t, uint64_t b, uint64_t end) {
    size_t k = 0;
    uint64_t at = 0;  // members before segment k
    while (b >= at + todo[k].size) at += todo[k++].size;
    for (uint64_t m = b; m < end; k++, m = at) {
      const uint64_t from = todo[k].begin + (m - at);
      at += todo[k].size;
      place_range(todo[k].level, e + from, std::min(end, at) - m);
    }
  });
  located_.fetch_add(total, std::memory_order_relaxed);
}

bool TieRefiner::by_comparator(const TieSegment& s) const {
  return image_words_costly(images_[s.level].key) && s.depth >= kCostlyWordsByImage;
}

uint64_t TieRefiner::load_words(KeyEntry* e, uint64_t n, uint32_t level, uint64_t depth, uint64_t* located) const {
  const LineImageSpec& image = images_[level];
  uint64_t longest = 0;
  const bool cached_words = cached_.holds(level, depth);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t line = e[i].index;
    if (cached_words) {  // a pass kept the word and the image's length
      longest = std::max<uint64_t>(longest, cache_[line].image_length);
      e[i].prefix = cache_[line].word[depth - cached_.depth];
      continue;
    }
    const LineImageView v = view_of(level, line, located);
    longest = std::max(longest, line_image_length(image, v));
    e[i].prefix = line_image_word(image, v, depth);
  }
  return longest;
}

void TieRefiner::sort_by_comparator(KeyEntry* e, KeyEntry* tmp, uint64_t n, bool parallel) const {
  sort_by_comparison(parallel ? &pool_ : nullptr, compare_, lines_, e, tmp, n);
}

template <typename Push>
void TieRefiner::settle_spent(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  const LineImageSpec& image = images_[s.level];
  if (image_leaves_ties_to_comparison(image.key)) {  // equal heads say nothing: the comparison orders them
    sort_by_comparator(e, tmp, s.size, parallel);  // ('V': a collated level is settled by its heads instead)
    return;
  }
  std::atomic<bool> capped{false};
  std::atomic<uint64_t> located{0};
  const size_t tasks = parallel ? refine_tasks(pool_, s.size) : 1;
  const bool exact = image_is_exact(image.key);
  // Text keys: by the length of their text (longer first under 'r').
  // Exact images: all equal, unless a number is too long for the image
  // (line_image.h: its digits, or its count, capped).
  for_range(pool_, tasks, s.size, [&](size_t, uint64_t b, uint64_t end) {
    uint64_t found = 0;
    for (uint64_t i = b; i < end; ++i) {
      const LineCache c = entry(s.level, e[i].index);
      const bool placed = c.key_length != kUnplaced;
      uint64_t len = 0;
      if (reads_number(image.key)) {
        const bool too_long = placed ? number_image_capped(c.image_length)
                                     : !number_digits_in_image(view_of(s.level, e[i].index, &found).number);
        if (too_long) capped.store(true, std::memory_order_relaxed);
      } else if (!exact) {
        len = placed ? c.image_length : line_image_length(image, view_of(s.level, e[i].index, &found));
      }
      e[i].prefix = image.key.reverse ? ~len : len;
    }
    located.fetch_add(found, std::memory_order_relaxed);
  });
  located_.fetch_add(located.load(), std::memory_order_relaxed);
  if (capped.load()) {
    sort_by_comparator(e, tmp, s.size, parallel);
    return;
  }
  if (!exact) parallel ? sort_pairs(pool_, e, tmp, s.size) : radix_sort_entries(e, tmp, s.size);
  to_next_level(e, s, tasks, push);
}

template <typename Push>
void TieRefiner::to_next_level(KeyEntry* e, const TieSegment& s, size_t tasks, Push push) {
  if (s.level + 1 == images_.size()) return;  // equal in every key: input order
  // The members go on to the next key: where it lies in each line, found once.
  for_range(pool_, tasks, s.size, [&](size_t, uint64_t b, uint64_t end) {
    place_range(s.level + 1, e + b, end - b);
  });
  located_.fetch_add(s.size, std::memory_order_relaxed);
  for (uint64_t i = 0; i < s.size;) {
    uint64_t j = i + 1;
    while (j < s.size && e[j].prefix == e[i].prefix) ++j;
    if (j - i > 1) push(TieSegment{s.begin + i, j - i, 0, s.level + 1});
    i = j;
  }
}

template <typename Push>
bool TieRefiner::settle_collated(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  if (!followed(s.level)) return false;
  if (keys_alike(e, s.size)) {  // one key's bytes: one run as they stand
    as_one_run(e, s, parallel, push);
    return true;
  }
  thread_local std::vector<KeyBytes> keys;
  member_keys(e, s.size, s.level, keys);
  sort_into_key_runs(parallel ? &pool_ : nullptr, images_[s.level], keys.data(), e, tmp, s.size);
  to_next_level(e, s, parallel ? refine_tasks(pool_, s.size) : 1, push);
  return true;
}

template <typename Push>
void TieRefiner::as_one_run(KeyEntry* e, const TieSegment& s, bool parallel, Push push) {
  for (uint64_t i = 0; i < s.size; ++i) e[i].prefix = 0;
  to_next_level(e, s, parallel ? refine_tasks(pool_, s.size) : 1, push);
}

template <typename Push>
void TieRefiner::settle_by_heads(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  KeyEntry* members = e + s.begin;
  if (followed(s.level) && keys_alike(members, s.size)) {  // one key repeated: no heads to read
    as_one_run(members, s, parallel, push);
    return;
  }
  if (heads_known_equal(members, s)) {
    for (uint64_t i = 0; i < s.size; ++i) members[i].prefix = 0;  // one run of equal heads
  } else {
    sort_by_heads(parallel ? &pool_ : nullptr, images_[s.level], lines_, members, tmp + s.begin, s.size);
  }
  settle_head_runs(e, tmp, s, parallel, push);
}

template <typename Push>
void TieRefiner::settle_head_runs(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push) {
  KeyEntry* members = e + s.begin;
  for (uint64_t i = 0; i < s.size;) {
    uint64_t j = i + 1;
    while (j < s.size && members[j].prefix == members[i].prefix) ++j;
    const TieSegment run{s.begin + i, j - i, 0, s.level};
    if (run.size > 1 && !settle_collated(members + i, tmp + run.begin, run, parallel, push)) {
      sort_by_comparator(members + i, tmp + run.begin, run.size, parallel);
    }
    i = j;
  }
}

template <typename Push>
void TieRefiner::step(KeyEntry* e, KeyEntry* tmp, TieSegment s, bool parallel, Push push) {
  if (collated(s)) {
    settle_by_heads(e, tmp, s, parallel, push);
    return;
  }
  KeyEntry* members = e + s.begin;
  const bool by_comparison = by_comparator(s);
  if (!by_comparison) skip_equal_words(e, s);
  std::vector<uint64_t> most(parallel ? refine_tasks(pool_, s.size) : 1, 0);
  std::atomic<uint64_t> located{0};
  for_range(pool_, most.size(), s.size, [&](size_t t, uint64_t b, uint64_t end) {
    uint64_t found = 0;
    most[t] = by_comparison ? placed_longest(members + b, end - b, s.level)
                            : load_words(members + b, end - b, s.level, s.depth, &found);
    located.fetch_add(found, std::memory_order_relaxed);
  });
  located_.fetch_add(located.load(), std::memory_order_relaxed);
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
  if (by_comparator(s)) {
    sort_by_comparator(members, tmp + s.begin, s.size, parallel);
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

template <typename Push>
void TieRefiner::settle_heads_round(KeyEntry* e, KeyEntry* tmp, const std::vector<TieSegment>& segments, Push push) {
  thread_local std::vector<TieSegment> todo;
  thread_local std::vector<uint32_t> member_lines;
  thread_local std::vector<uint64_t> words;
  todo.clear();
  member_lines.clear();
  for (const TieSegment& s : segments) {
    if (followed(s.level) && keys_alike(e + s.begin, s.size)) {  // one key repeated: no heads to read
      as_one_run(e + s.begin, s, false, push);
      continue;
    }
    if (heads_known_equal(e + s.begin, s)) {
      for (uint64_t i = 0; i < s.size; ++i) e[s.begin + i].prefix = 0;  // one run of equal heads
      settle_head_runs(e, tmp, s, false, push);
      continue;
    }
    todo.push_back(s);
    for (uint64_t i = 0; i < s.size; ++i) member_lines.push_back(e[s.begin + i].index);
  }
  read_heads(todo, member_lines, words);
  uint64_t k = 0;
  for (const TieSegment& s : todo) {
    sort_by_given_heads(nullptr, &words[kHeadWords * k], e + s.begin, tmp + s.begin, s.size);
    settle_head_runs(e, tmp, s, false, push);
    k += s.size;
  }
}

void TieRefiner::refine_serial(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments) {
  place_members(e, segments, false);
  refine_rounds(e, tmp, std::move(segments));
}

void TieRefiner::refine_rounds(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments) {
  std::vector<TieSegment> next;
  std::vector<uint64_t> longest;
  std::vector<TieSegment> loaded, collated_round;
  while (!segments.empty()) {
    next.clear();
    loaded.clear();
    collated_round.clear();
    for (TieSegment& s : segments) {
      if (collated(s)) {  // its heads once a line, not a word a round
        collated_round.push_back(s);
        continue;
      }
      skip_equal_words(e, s);
      loaded.push_back(s);
    }
    settle_heads_round(e, tmp, collated_round, [&next](const TieSegment& r) { next.push_back(r); });
    segments.swap(loaded);
    load_round(e, segments, longest);
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
  place_members(e, segments, true);
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
    refine_rounds(e, tmp, std::vector<TieSegment>(small.begin() + static_cast<ptrdiff_t>(first[t]),
                                                  small.begin() + static_cast<ptrdiff_t>(first[t + 1])));
  });
}

}  // namespace gsort
