// A number in a text key as GNU sort's -n reads it (and -h's unit after
// it): leading blanks, an optional '-', digits, and optionally the decimal
// point ('.' in C) and more digits; no '+', no exponent. In a locale with
// a thousands separator (NumberMarks), separators among the integer
// digits, and before them, are skipped, as GNU's strnumcmp skips them.
// Whatever does not fit ends the number; a key without digits is zero.
// The comparison (src/keys/line_numeric.h) and the key's image
// (line_image.h) both read this shape.
//
// The C locale has no thousands separator, and no byte is read as one, as
// in coreutils 9.5 and later: 9.1 to 9.4, built where char is signed
// (x86), skipped a 0x80 byte among the integer digits as if it were one
// (printf '1\x802' | LC_ALL=C sort -n read 12, where 9.5 reads 1); and
// the same releases missed a locale's one-byte separator past 0x7F
// (sv_SE.ISO-8859-1's 0xA0), which gsort reads, as 9.5 does.
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"
#include "src/keys/line_fields.h"

namespace gsort {

GSORT_HD bool is_ascii_digit(uint8_t c) { return c >= '0' && c <= '9'; }

// The number's significant digits, as offsets into the key's bytes: the
// integer part without its leading zeros, and the fraction without its
// trailing zeros. The digit string D (integer digits, then fraction
// digits) with int_digits fixes the value; D is empty for zero.
struct LineNumber {
  int sign = 0;              // -1, 0 (the number is zero), 1
  uint64_t int_begin = 0;    // first significant integer digit
  uint64_t int_digits = 0;
  uint64_t frac_begin = 0;   // first fraction digit (after the decimal point)
  uint64_t frac_digits = 0;  // up to the last non-zero one
  bool spread = false;       // thousands separators among the integer digits
  GSORT_HD uint64_t digits() const { return int_digits + frac_digits; }
  // Digit k of D, as a byte '0'..'9'. With separators among the integer
  // digits it walks from the first one (an image reads a bounded prefix:
  // line_image.h's kImageDigits).
  GSORT_HD uint8_t digit(const uint8_t* key, uint64_t k) const {
    if (k >= int_digits) return key[frac_begin + (k - int_digits)];
    if (!spread) return key[int_begin + k];
    for (uint64_t at = int_begin, seen = 0;; ++at) {
      if (is_ascii_digit(key[at]) && seen++ == k) return key[at];
    }
  }
};

// The unit after the number at the start of key[0, len), as -h reads it
// (GNU sort's unit order): 0 for none or an unknown one, then k and K 1,
// M 2, G 3, T 4, P 5, E 6, Z 7, Y 8, R 9, Q 10; negative for a negative
// number; 0 when the number has no non-zero digit. The number here is
// blanks, an optional '-', digits, and optionally '.' and digits, the unit
// the byte right after. The order is 0 or takes the number's
// sign, so it refines the sign. With 'f' the key is folded to upper case
// first, as GNU sort folds it: "1e" is then 1E.
GSORT_HD int unit_order_of(uint8_t c) {
  switch (c) {
    case 'k': case 'K': return 1;
    case 'M': return 2;
    case 'G': return 3;
    case 'T': return 4;
    case 'P': return 5;
    case 'E': return 6;
    case 'Z': return 7;
    case 'Y': return 8;
    case 'R': return 9;
    case 'Q': return 10;
    default: return 0;
  }
}

// In a locale with a thousands separator, one separator after each digit
// is skipped, and a number that ends in one (a separator not followed by a
// digit) has no unit: GNU's traverse_raw_number.
GSORT_HD int line_unit_order(const uint8_t* key, uint64_t len, bool fold, NumberMarks marks = {}) {
  uint64_t at = skip_line_blanks(key, len, 0);
  const bool negative = at < len && key[at] == '-';
  if (negative) ++at;
  bool nonzero = false, ends_with_separator = false;
  while (at < len && is_ascii_digit(key[at])) {
    nonzero |= key[at] != '0';
    ++at;
    ends_with_separator = at < len && key[at] == marks.thousands_separator;
    if (ends_with_separator) ++at;
  }
  if (ends_with_separator) return 0;
  if (at < len && key[at] == marks.decimal_point) {
    for (++at; at < len && is_ascii_digit(key[at]); ++at) nonzero |= key[at] != '0';
  }
  if (!nonzero || at == len) return 0;
  const int order = unit_order_of(fold ? fold_upper(key[at]) : key[at]);
  return negative ? -order : order;
}

// Reads the number at the start of key[0, len).
GSORT_HD LineNumber parse_line_number(const uint8_t* key, uint64_t len, NumberMarks marks = {}) {
  LineNumber n;
  uint64_t at = skip_line_blanks(key, len, 0);
  const bool negative = at < len && key[at] == '-';
  if (negative) ++at;
  const int separator = marks.thousands_separator;
  while (at < len && (key[at] == '0' || key[at] == separator)) ++at;
  n.int_begin = at;
  for (; at < len; ++at) {
    if (is_ascii_digit(key[at])) {
      ++n.int_digits;
    } else if (key[at] == separator && n.int_digits != 0) {
      n.spread = true;
    } else {
      break;
    }
  }
  if (at < len && key[at] == marks.decimal_point) {
    n.frac_begin = ++at;
    uint64_t last_nonzero = at;  // one past the last non-zero fraction digit
    while (at < len && is_ascii_digit(key[at])) {
      if (key[at] != '0') last_nonzero = at + 1;
      ++at;
    }
    n.frac_digits = last_nonzero - n.frac_begin;
  }
  if (n.digits() != 0) n.sign = negative ? -1 : 1;
  return n;
}

}  // namespace gsort
