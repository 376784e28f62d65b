#include "src/chunk_sort/entries/entry_merge.h"

#include <algorithm>

#include "src/algo/merge_path.h"

namespace gsort {

const KeyEntry* merge_entry_runs(ThreadPool& pool, const KeyLayout& layout, const uint8_t* records,
                                 KeyEntry* entries, KeyEntry* scratch, std::vector<size_t> bounds) {
  KeyEntry* src = entries;
  KeyEntry* dst = scratch;
  const auto lt = [&](const KeyEntry& x, const KeyEntry& y) { return entry_less(layout, records, x, y); };
  while (bounds.size() > 2) {
    const size_t runs = bounds.size() - 1;
    const size_t pairs = runs / 2;
    const size_t parts = std::max<size_t>(1, (pool.size() * 2 + pairs - 1) / pairs);
    pool.parallel_for(pairs * parts + (runs % 2), [&](size_t task) {
      if (task == pairs * parts) {  // odd run out: copy through
        std::copy(src + bounds[runs - 1], src + bounds[runs], dst + bounds[runs - 1]);
        return;
      }
      const size_t p = task / parts, part = task % parts;
      const KeyEntry* a = src + bounds[2 * p];
      const KeyEntry* b = src + bounds[2 * p + 1];
      const uint64_t na = bounds[2 * p + 1] - bounds[2 * p];
      const uint64_t nb = bounds[2 * p + 2] - bounds[2 * p + 1];
      const uint64_t d0 = split_point(na + nb, parts, part), d1 = split_point(na + nb, parts, part + 1);
      uint64_t i = merge_path(a, na, b, nb, d0, lt), j = d0 - i;
      const uint64_t i_end = merge_path(a, na, b, nb, d1, lt), j_end = d1 - i_end;
      KeyEntry* out = dst + bounds[2 * p] + d0;
      while (i < i_end && j < j_end) *out++ = lt(b[j], a[i]) ? b[j++] : a[i++];
      while (i < i_end) *out++ = a[i++];
      while (j < j_end) *out++ = b[j++];
    });
    std::vector<size_t> next;
    for (size_t r = 0; r < runs; r += 2) next.push_back(bounds[r]);
    next.push_back(bounds[runs]);
    bounds.swap(next);
    std::swap(src, dst);
  }
  return src;
}

}  // namespace gsort
