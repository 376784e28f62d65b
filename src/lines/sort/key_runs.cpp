#include "src/lines/sort/key_runs.h"

#include <algorithm>

#include "src/lines/sort/comparison_sort.h"

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

}  // namespace gsort
