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

// Appends bytes to a head of at most `most` bytes; false once it is full.
struct HeadWriter {
  uint8_t* out;
  uint64_t most;
  uint64_t len = 0;
  bool put(uint8_t b) {
    if (len == most) return false;
    out[len++] = b;
    return true;
  }
};

// The class of a key for compare_versions' first rules.
uint8_t version_class(const uint8_t* s, uint64_t n) {
  if (n == 0) return 0;
  if (s[0] != '.') return 4;
  if (n == 1) return 1;
  return n == 2 && s[1] == '.' ? 2 : 3;
}

// s[0, n) as compare_runs reads it (version_image's encoding), then the
// end as compare_runs sees it: more empty runs, each a 0x02 and a zero
// length, up to the head's size. Stops where the head is full or a digit
// run is too long for its length byte.
void put_runs(const uint8_t* s, uint64_t n, HeadWriter& w) {
  uint64_t i = 0;
  for (;;) {
    for (; i < n && !is_digit(s[i]); ++i) {
      const uint8_t c = s[i];
      if (c == '~') {
        if (!w.put(0x01)) return;
      } else if (is_alpha(c)) {
        if (!w.put(static_cast<uint8_t>(0x10 + (c - 'A')))) return;
      } else if (!w.put(0xFF) || !w.put(c)) {
        return;
      }
    }
    // A digit or the end closes the run alike: compare_runs compares them
    // only with the other key's non-digits ('~' below, the rest above).
    if (!w.put(0x02)) return;
    while (i < n && s[i] == '0') ++i;
    uint64_t digits = 0;
    while (i + digits < n && is_digit(s[i + digits])) ++digits;
    if (digits >= 0xFE) {
      w.put(0xFF);
      return;
    }
    if (!w.put(static_cast<uint8_t>(digits))) return;
    for (uint64_t d = 0; d < digits; ++d) {
      if (!w.put(s[i + d])) return;
    }
    i += digits;
  }
}

}  // namespace

uint64_t version_image(const uint8_t* key, uint64_t len, uint8_t* out, uint64_t most) {
  HeadWriter w{out, most};
  const uint8_t cls = version_class(key, len);
  if (!w.put(cls) || cls < 3) return w.len;
  put_runs(key, prefix_length(key, len), w);
  return w.len;
}

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
