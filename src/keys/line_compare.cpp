#include "src/keys/line_compare.h"

#include <cstring>
#include <string>

#include "src/keys/collation.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_image.h"
#include "src/keys/line_month.h"
#include "src/keys/line_numeric.h"
#include "src/keys/line_orders.h"
#include "src/keys/version_order.h"

namespace gsort {
namespace {

int compare_folded(const LineKey& key, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  const uint64_t n = alen < blen ? alen : blen;
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t x = fold_key_byte(key, a[i]), y = fold_key_byte(key, b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

// 'd' or 'i' (and 'f'): the kept bytes compared, a key that runs out
// first sorts first.
int compare_kept(const LineKey& key, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  uint64_t i = 0, j = 0;
  for (;;) {
    while (i < alen && !keeps_byte(key, a[i])) ++i;
    while (j < blen && !keeps_byte(key, b[j])) ++j;
    if (i == alen || j == blen) return (i < alen) - (j < blen);
    const uint8_t x = key.fold ? fold_key_byte(key, a[i]) : a[i], y = key.fold ? fold_key_byte(key, b[j]) : b[j];
    if (x != y) return x < y ? -1 : 1;
    ++i, ++j;
  }
}

int compare_text(const LineKey& key, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  if (key.keep != kKeepAll) return compare_kept(key, a, alen, b, blen);
  return key.fold ? compare_folded(key, a, alen, b, blen) : compare_line_bytes(a, alen, b, blen);
}

int compare_general(const LineKey& key, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  uint8_t x[kGeneralImageBytes], y[kGeneralImageBytes];
  general_image(a, alen, x, key.rules);
  general_image(b, blen, y, key.rules);
  const int d = std::memcmp(x, y, kGeneralImageBytes);
  return d == 0 ? 0 : (d < 0 ? -1 : 1);
}

// GNU's compare_random: by digest, equal digests by the keys' bytes; in
// a locale, both of the keys' collation images (collation.h).
int compare_random(const LineImageSpec& spec, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  thread_local std::string aimage, bimage;
  if (spec.collation != nullptr) {
    aimage.clear(), bimage.clear();
    spec.collation->transform_segments(a, alen, aimage);
    spec.collation->transform_segments(b, blen, bimage);
    a = reinterpret_cast<const uint8_t*>(aimage.data()), alen = aimage.size();
    b = reinterpret_cast<const uint8_t*>(bimage.data()), blen = bimage.size();
  }
  uint8_t x[kRandomDigestBytes], y[kRandomDigestBytes];
  random_digest(spec.seed, a, alen, x);
  random_digest(spec.seed, b, blen, y);
  const int d = std::memcmp(x, y, kRandomDigestBytes);
  if (d != 0) return d < 0 ? -1 : 1;
  return compare_line_bytes(a, alen, b, blen);
}

// The orderings that read a transformed copy of the key (transform_key).
int compare_transformed(const LineImageSpec& spec, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  thread_local std::string abuf, bbuf;
  const KeyBytes x = transform_key(spec.key, a, alen, abuf), y = transform_key(spec.key, b, blen, bbuf);
  switch (line_order(spec.key)) {
    case LineOrder::kGeneral: return compare_general(spec.key, x.data, x.len, y.data, y.len);
    case LineOrder::kRandom: return compare_random(spec, x.data, x.len, y.data, y.len);
    case LineOrder::kCollate: return spec.collation->compare(x.data, x.len, y.data, y.len);
    default: return compare_versions(x.data, x.len, y.data, y.len);
  }
}

}  // namespace

int compare_transformed_key(const LineImageSpec& spec, const uint8_t* a, uint64_t alen, const uint8_t* b,
                            uint64_t blen) {
  const int diff = compare_transformed(spec, a, alen, b, blen);
  return spec.key.reverse ? -diff : diff;
}

namespace {

int compare_key(const LineImageSpec& spec, const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  const LineKey& key = spec.key;
  uint64_t ab = 0, ae = 0, bb = 0, be = 0;
  line_key_extent(a, alen, key, spec.separator, &ab, &ae);
  line_key_extent(b, blen, key, spec.separator, &bb, &be);
  a += ab, alen = ae - ab, b += bb, blen = be - bb;
  int diff = 0;
  switch (line_order(key)) {
    case LineOrder::kNumber:
      diff = key.human ? compare_human_numbers(a, alen, b, blen, key.fold, key.marks)
                       : compare_line_numbers(a, alen, b, blen, key.marks);
      break;
    case LineOrder::kMonth: diff = line_month(a, alen, key.rules) - line_month(b, blen, key.rules); break;
    case LineOrder::kText: diff = compare_text(key, a, alen, b, blen); break;
    default: diff = compare_transformed(spec, a, alen, b, blen); break;
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
  for (const LineImageSpec& key : keys_) {
    const int diff = compare_key(key, a, alen, b, blen);
    if (diff != 0) return diff;
  }
  return 0;
}

int LineComparator::compare(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const {
  const int diff = compare_keys(a, alen, b, blen);
  if (diff != 0 || !spec_.last_resort()) return diff;
  const int whole =
      spec_.collate_text ? spec_.collation->compare(a, alen, b, blen) : compare_line_bytes(a, alen, b, blen);
  return spec_.reverse ? -whole : whole;
}

}  // namespace gsort
