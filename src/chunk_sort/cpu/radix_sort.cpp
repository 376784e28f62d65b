#include "src/chunk_sort/cpu/radix_sort.h"

#include <algorithm>
#include <cstring>

namespace gsort {

void radix_sort_entries(KeyEntry* entries, KeyEntry* scratch, size_t n) {
  if (n < 2) return;
  if (n < 64) {  // insertion sort: stable, and cheaper than eight passes
    for (size_t i = 1; i < n; ++i) {
      const KeyEntry e = entries[i];
      size_t j = i;
      while (j > 0 && entries[j - 1].prefix > e.prefix) {
        entries[j] = entries[j - 1];
        --j;
      }
      entries[j] = e;
    }
    return;
  }
  size_t counts[8][256];
  std::memset(counts, 0, sizeof counts);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t p = entries[i].prefix;
    for (int d = 0; d < 8; ++d) ++counts[d][(p >> (8 * d)) & 0xFF];
  }
  KeyEntry* src = entries;
  KeyEntry* dst = scratch;
  for (int d = 0; d < 8; ++d) {
    size_t* c = counts[d];
    const uint64_t first_digit = (src[0].prefix >> (8 * d)) & 0xFF;
    if (c[first_digit] == n) continue;  // every entry has this digit
    size_t offset = 0;
    for (int b = 0; b < 256; ++b) {
      const size_t k = c[b];
      c[b] = offset;
      offset += k;
    }
    const int shift = 8 * d;
    for (size_t i = 0; i < n; ++i) {
      const KeyEntry e = src[i];
      dst[c[(e.prefix >> shift) & 0xFF]++] = e;
    }
    std::swap(src, dst);
  }
  if (src != entries) std::memcpy(entries, src, n * sizeof(KeyEntry));
}

}  // namespace gsort
