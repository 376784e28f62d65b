#include "src/lines/keys/line_compare.h"

#include <cstring>

#include "src/keys/line_fields.h"
#include "src/keys/line_image.h"
#include "src/lines/keys/line_numeric.h"

namespace gsort {
namespace {

int compare_folded(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  const uint64_t n = alen < blen ? alen : blen;
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t x = fold_upper(a[i]), y = fold_upper(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

int compare_key(const LineKey& key, int separator, const uint8_t* a, uint64_t alen, const uint8_t* b,
                uint64_t blen) {
  uint64_t ab = 0, ae = 0, bb = 0, be = 0;
  line_key_extent(a, alen, key, separator, &ab, &ae);
  line_key_extent(b, blen, key, separator, &bb, &be);
  int diff;
  if (key.numeric) {
    diff = compare_line_numbers(a + ab, ae - ab, b + bb, be - bb);
  } else if (key.human) {
    diff = compare_human_numbers(a + ab, ae - ab, b + bb, be - bb, key.fold);
  } else if (key.fold) {
    diff = compare_folded(a + ab, ae - ab, b + bb, be - bb);
  } else {
    diff = compare_line_bytes(a + ab, ae - ab, b + bb, be - bb);
  }
  return key.reverse ? -diff : diff;
}

}  // namespace

int compare_line_bytes(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  const uint64_t n = alen < blen ? alen : blen;
  if (n != 0) {
    const int d = std::memcmp(a, b, n);
    if (d != 0) return d < 0 ? -1 : 1;
  }
  return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

int LineComparator::compare_keys(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const {
  for (const LineKey& key : spec_.keys) {
    const int diff = compare_key(key, spec_.separator, a, alen, b, blen);
    if (diff != 0) return diff;
  }
  return 0;
}

int LineComparator::compare(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const {
  const int diff = compare_keys(a, alen, b, blen);
  if (diff != 0 || !spec_.last_resort()) return diff;
  const int whole = compare_line_bytes(a, alen, b, blen);
  return spec_.reverse ? -whole : whole;
}

}  // namespace gsort
