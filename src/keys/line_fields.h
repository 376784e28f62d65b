// Where a GNU sort key starts and ends in one line (its bytes without the
// terminator), as GNU sort's begfield and limfield find them. Shared by
// the host and the GPU.
//
// Blanks are space, tab and newline (a newline is inside a line only with
// -z). Without -t a field is a run of blanks then a run of non-blanks, so
// it includes its leading blanks; with -t it ends at the separator.
#pragma once

#include <cstdint>
#include <cstring>

#include "src/cuda/host_device.h"
#include "src/keys/line_key.h"

namespace gsort {

GSORT_HD bool is_line_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n'; }

// 'f': a-z as A-Z (the C locale's toupper).
GSORT_HD uint8_t fold_upper(uint8_t c) { return (c >= 'a' && c <= 'z') ? static_cast<uint8_t>(c - 32) : c; }
// 'f's upper case of a key's byte: the C locale's, or the key's locale's.
GSORT_HD uint8_t fold_key_byte(const LineKey& key, uint8_t c) {
  return key.rules != nullptr ? key.rules->upper[c] : fold_upper(c);
}

// Offset of the first byte at or after `at` that is not blank (or len).
GSORT_HD uint64_t skip_line_blanks(const uint8_t* line, uint64_t len, uint64_t at) {
  while (at < len && is_line_blank(line[at])) ++at;
  return at;
}

// The first byte at or after `at` that is `sep`, or len. On the host,
// eight bytes at a time: the byte-by-byte loop was the busiest of a
// composite fill (-t, -k2,2 -k1,1n: a third of its key views' time).
GSORT_HD uint64_t find_line_byte(const uint8_t* line, uint64_t len, uint64_t at, uint8_t sep) {
#if !defined(__CUDA_ARCH__)
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the lowest byte of a load is the first");
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const uint64_t pattern = kOnes * sep;
  for (; at + 8 <= len; at += 8) {
    uint64_t word;
    std::memcpy(&word, line + at, 8);
    const uint64_t x = word ^ pattern;  // a zero byte where sep is
    // The lowest set high bit marks the first zero byte (a borrow sets
    // others only above a zero byte).
    const uint64_t zero = (x - kOnes) & ~x & kHighs;
    if (zero != 0) return at + static_cast<uint64_t>(__builtin_ctzll(zero)) / 8;
  }
#endif
  while (at < len && line[at] != sep) ++at;
  return at;
}

// Moves past one field from `at`: with a separator, to the separator
// (not past it); without, past the blanks and then the non-blanks.
GSORT_HD uint64_t skip_line_field(const uint8_t* line, uint64_t len, uint64_t at, int separator) {
  if (separator != kBlankSeparated) return find_line_byte(line, len, at, static_cast<uint8_t>(separator));
  at = skip_line_blanks(line, len, at);
  while (at < len && !is_line_blank(line[at])) ++at;
  return at;
}

// at + n, but no further than len (n may be huge).
GSORT_HD uint64_t advance_within(uint64_t at, uint64_t n, uint64_t len) { return n >= len - at ? len : at + n; }

// Moves past fields of the line from `at`, field `*field` onwards, until
// `fields` are passed or the line ends: GNU's begfield and limfield walk
// alike, past the separator after each field, but limfield not past the
// one after its last field unless a character position follows.
GSORT_HD uint64_t pass_line_fields(const uint8_t* line, uint64_t len, uint64_t at, uint64_t* field, uint64_t fields,
                                   bool past_last, int separator) {
  for (; at < len && *field < fields; ++*field) {
    at = skip_line_field(line, len, at, separator);
    if (separator != kBlankSeparated && at < len && (*field + 1 < fields || past_last)) ++at;
  }
  return at;
}

// Where the key starts (GNU's begfield).
GSORT_HD uint64_t line_key_start(const uint8_t* line, uint64_t len, const LineKey& key, int separator) {
  uint64_t passed = 0;
  uint64_t at = pass_line_fields(line, len, 0, &passed, key.start_field, true, separator);
  if (key.skip_start_blanks) at = skip_line_blanks(line, len, at);
  return advance_within(at, key.start_char, len);
}

// Where the key ends (GNU's limfield); may be before its start, which
// makes the key empty.
GSORT_HD uint64_t line_key_limit(const uint8_t* line, uint64_t len, const LineKey& key, int separator) {
  if (key.end_field == kToLineEnd) return len;
  // Without a character position the whole end field is in the key.
  const uint64_t fields = key.end_char == 0 ? key.end_field + 1 : key.end_field;
  uint64_t passed = 0;
  uint64_t at = pass_line_fields(line, len, 0, &passed, fields, key.end_char != 0, separator);
  if (key.end_char != 0) {
    if (key.skip_end_blanks) at = skip_line_blanks(line, len, at);
    at = advance_within(at, key.end_char, len);
  }
  return at;
}

// The key's bytes: [*begin, *end), empty when the limit is before the
// start. The start is GNU's begfield; the limit (limfield: the end of
// field end_field, or end_char bytes into it, or the line's end) goes on
// from the fields the start passed where it passes them too.
GSORT_HD void line_key_extent(const uint8_t* line, uint64_t len, const LineKey& key, int separator, uint64_t* begin,
                              uint64_t* end) {
  uint64_t passed = 0;
  const uint64_t field_start = pass_line_fields(line, len, 0, &passed, key.start_field, true, separator);
  uint64_t b = key.skip_start_blanks ? skip_line_blanks(line, len, field_start) : field_start;
  b = advance_within(b, key.start_char, len);
  uint64_t e = len;
  if (key.end_field != kToLineEnd) {
    // Without a character position the whole end field is in the key.
    const uint64_t fields = key.end_char == 0 ? key.end_field + 1 : key.end_field;
    if (passed >= fields) passed = 0;  // the limit is before the start's field: from the line's start
    e = pass_line_fields(line, len, passed == 0 ? 0 : field_start, &passed, fields, key.end_char != 0, separator);
    if (key.end_char != 0) {
      if (key.skip_end_blanks) e = skip_line_blanks(line, len, e);
      e = advance_within(e, key.end_char, len);
    }
  }
  *begin = b;
  *end = e < b ? b : e;
}

}  // namespace gsort
