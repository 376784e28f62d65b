#include "src/lines/sort/key_runs.h"

#include <algorithm>
#include <cstring>

#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/keys/line_image.h"
#include "src/lines/sort/comparison_sort.h"
#include "src/lines/sort/pair_sort.h"

namespace gsort {

size_t refine_tasks(ThreadPool& pool, uint64_t n) {
  return static_cast<size_t>(std::max<uint64_t>(1, std::min<uint64_t>(pool.balanced_task_count(), n >> 12)));
}

std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base,
                                  uint32_t level) {
  const size_t tasks = refine_tasks(pool, n);
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

std::vector<std::unique_ptr<LineComparator>> collated_key_comparators(const LineSpec& spec, size_t levels) {
  std::vector<std::unique_ptr<LineComparator>> by_key(levels);
  for (size_t l = 0; l + 1 < levels && l < spec.keys.size(); ++l) {
    if (line_order(spec.keys[l]) != LineOrder::kCollate) continue;
    LineSpec one = spec;  // this key alone: no last resort
    one.keys = {spec.keys[l]};
    one.stable = true;
    by_key[l] = std::make_unique<LineComparator>(one);
  }
  return by_key;
}

void sort_into_key_runs(ThreadPool* pool, const LineComparator& by_key, const LineSpan& lines, KeyEntry* e,
                        KeyEntry* tmp, uint64_t n) {
  sort_by_comparison(pool, by_key, lines, e, tmp, n);
  // Runs of keys the collation finds equal (the same bytes, mostly).
  uint64_t run = 0;
  if (n != 0) e[0].prefix = 0;
  for (uint64_t i = 1; i < n; ++i) {
    const uint32_t a = e[i - 1].index, b = e[i].index;
    run += by_key.compare(lines.line(a), lines.length(a), lines.line(b), lines.length(b)) != 0;
    e[i].prefix = run;
  }
}

namespace {
constexpr uint64_t kFewForRadix = 64;
}  // namespace

void sort_by_heads(ThreadPool* pool, const LineImageSpec& image, const LineSpan& lines, KeyEntry* e, KeyEntry* tmp,
                   uint64_t n) {
  constexpr uint64_t kWords = (kImageHeadBytes + 7) / 8;
  thread_local std::vector<uint64_t> words;
  thread_local std::vector<uint32_t> line_of;
  words.resize(kWords * n);
  line_of.resize(n);
  const auto fill = [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const uint32_t line = e[i].index;
      line_of[i] = line;
      const LineImageView v = view_line_image(image, lines.line(line), lines.length(line));
      for (uint64_t w = 0; w < kWords; ++w) words[kWords * i + w] = line_image_word(image, v, w);
      e[i].index = static_cast<uint32_t>(i);  // its place among the n, until the end
    }
  };
  const size_t tasks = pool != nullptr ? refine_tasks(*pool, n) : 1;
  if (tasks == 1) {
    fill(0, n);
  } else {
    pool->parallel_for(tasks, [&](size_t t) { fill(split_point(n, tasks, t), split_point(n, tasks, t + 1)); });
  }
  const auto head_less = [&](const KeyEntry& a, const KeyEntry& b) {
    for (uint64_t w = 0; w < kWords; ++w) {
      const uint64_t x = words[kWords * a.index + w], y = words[kWords * b.index + w];
      if (x != y) return x < y;
    }
    return false;
  };
  if (n <= kFewForRadix) {
    std::stable_sort(e, e + n, head_less);  // a radix sort's passes cost more than a few comparisons
  } else {
    // Least significant word first: each pass is stable.
    for (uint64_t w = kWords; w-- > 0;) {
      for (uint64_t i = 0; i < n; ++i) e[i].prefix = words[kWords * e[i].index + w];
      tasks == 1 ? radix_sort_entries(e, tmp, n) : sort_pairs(*pool, e, tmp, n);
    }
  }
  uint64_t run = 0, previous = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t at = e[i].index;
    if (i != 0 && std::memcmp(&words[kWords * at], &words[kWords * previous], 8 * kWords) != 0) ++run;
    previous = at;
    e[i].index = line_of[at];
    e[i].prefix = run;
  }
}

}  // namespace gsort
