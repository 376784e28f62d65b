#include "src/chunk_sort/cpu/entry_sort.h"

#include <algorithm>

#include "src/chunk_sort/cpu/radix_sort.h"

namespace gsort {

void sort_entries(const KeyLayout& layout, const uint8_t* records, KeyEntry* e, KeyEntry* tmp, size_t n) {
  radix_sort_entries(e, tmp, n);
  if (layout.prefix_is_whole_key()) return;
  const uint32_t rs = layout.record_size();
  // A run of equal prefixes is in index order; stable_sort keeps that
  // order for equal keys.
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && e[j].prefix == e[i].prefix) ++j;
    if (j - i > 1) {
      std::stable_sort(e + i, e + j, [&](const KeyEntry& x, const KeyEntry& y) {
        return layout.compare_after_prefix(records + uint64_t{x.index} * rs, records + uint64_t{y.index} * rs) < 0;
      });
    }
    i = j;
  }
}

}  // namespace gsort
