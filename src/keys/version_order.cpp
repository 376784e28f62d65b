#include "src/keys/version_order.h"

namespace gsort {
namespace {

bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }
bool is_alpha(uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Where the file suffix of s[0, n) begins: the longest tail made of
// ".X..." parts (X a letter or '~', then letters, digits and '~'), but
// never the whole of a nonempty name, so the first byte is always prefix.
// That is coreutils 9.2's rule and its manual's; 9.1 let ".a" be all
// suffix, which put ".A" before ".0".
uint64_t prefix_length(const uint8_t* s, uint64_t n) {
  uint64_t prefix = 0;
  for (uint64_t i = 0; i < n;) {
    prefix = ++i;
    while (i + 1 < n && s[i] == '.' && (is_alpha(s[i + 1]) || s[i + 1] == '~')) {
      for (i += 2; i < n && (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '~'); ++i) {
      }
    }
  }
  return prefix;
}

// The rank of byte s[pos] among non-digits: the end before all but '~',
// digits 0 (they end a run of non-digits), letters as themselves, other
// bytes after every letter.
int rank(const uint8_t* s, uint64_t pos, uint64_t len) {
  if (pos == len) return -1;
  const uint8_t c = s[pos];
  if (is_digit(c)) return 0;
  if (is_alpha(c)) return c;
  if (c == '~') return -2;
  return c + 256;
}

// Debian's version comparison: alternating runs of non-digits (by rank)
// and digits (by value: leading zeros skipped, then length, then the
// first differing digit).
int compare_runs(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  uint64_t i = 0, j = 0;
  while (i < alen || j < blen) {
    while ((i < alen && !is_digit(a[i])) || (j < blen && !is_digit(b[j]))) {
      const int x = rank(a, i, alen), y = rank(b, j, blen);
      if (x != y) return x - y;
      ++i, ++j;
    }
    while (i < alen && a[i] == '0') ++i;
    while (j < blen && b[j] == '0') ++j;
    int first_diff = 0;
    for (; i < alen && j < blen && is_digit(a[i]) && is_digit(b[j]); ++i, ++j) {
      if (first_diff == 0) first_diff = a[i] - b[j];
    }
    if (i < alen && is_digit(a[i])) return 1;
    if (j < blen && is_digit(b[j])) return -1;
    if (first_diff != 0) return first_diff;
  }
  return 0;
}

}  // namespace

int compare_versions(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
  if (alen == 0 || blen == 0) return (alen != 0) - (blen != 0);
  // "." first, then "..", then other names with a leading '.'.
  if (a[0] == '.' || b[0] == '.') {
    if (a[0] != b[0]) return a[0] == '.' ? -1 : 1;
    const bool adot = alen == 1, bdot = blen == 1;
    if (adot || bdot) return bdot - adot;
    const bool adotdot = a[1] == '.' && alen == 2, bdotdot = b[1] == '.' && blen == 2;
    if (adotdot || bdotdot) return bdotdot - adotdot;
  }
  const uint64_t aprefix = prefix_length(a, alen), bprefix = prefix_length(b, blen);
  const int result = compare_runs(a, aprefix, b, bprefix);
  if (result != 0 || (aprefix == alen && bprefix == blen)) return result;
  return compare_runs(a, alen, b, blen);
}

}  // namespace gsort
