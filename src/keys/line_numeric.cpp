#include "src/keys/line_numeric.h"

#include "src/keys/line_number.h"

namespace gsort {
namespace {

// Compares digit strings of equal integer digit counts; the longer one
// has a non-zero digit further on (trailing zeros are not counted).
int compare_digits(const uint8_t* x, uint64_t nx, const uint8_t* y, uint64_t ny) {
  const uint64_t common = nx < ny ? nx : ny;
  for (uint64_t k = 0; k < common; ++k) {
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  }
  return nx == ny ? 0 : (nx < ny ? -1 : 1);
}

// Compares `count` integer digits of each, thousands separators among
// them passed over.
int compare_spread_digits(const uint8_t* x, const uint8_t* y, uint64_t count) {
  for (uint64_t k = 0; k < count; ++k, ++x, ++y) {
    while (!is_ascii_digit(*x)) ++x;
    while (!is_ascii_digit(*y)) ++y;
    if (*x != *y) return *x < *y ? -1 : 1;
  }
  return 0;
}

// Compares the magnitudes of two non-zero numbers.
int compare_magnitudes(const uint8_t* a, const LineNumber& x, const uint8_t* b, const LineNumber& y) {
  if (x.int_digits != y.int_digits) return x.int_digits < y.int_digits ? -1 : 1;
  // The integer digits, then the fractions, each contiguous (but for
  // thousands separators among the integer digits).
  const int d = x.spread || y.spread ? compare_spread_digits(a + x.int_begin, b + y.int_begin, x.int_digits)
                                     : compare_digits(a + x.int_begin, x.int_digits, b + y.int_begin, y.int_digits);
  if (d != 0) return d;
  return compare_digits(a + x.frac_begin, x.frac_digits, b + y.frac_begin, y.frac_digits);
}

}  // namespace

int compare_line_numbers(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen, NumberMarks marks) {
  const LineNumber x = parse_line_number(a, alen, marks);
  const LineNumber y = parse_line_number(b, blen, marks);
  if (x.sign != y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign == 0) return 0;
  const int m = compare_magnitudes(a, x, b, y);
  return x.sign < 0 ? -m : m;
}

int compare_human_numbers(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen, bool fold,
                          NumberMarks marks) {
  const int x = line_unit_order(a, alen, fold, marks), y = line_unit_order(b, blen, fold, marks);
  if (x != y) return x < y ? -1 : 1;
  return compare_line_numbers(a, alen, b, blen, marks);
}

}  // namespace gsort
