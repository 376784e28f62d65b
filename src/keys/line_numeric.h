// -n's and -h's comparisons of two keys: by the values of the numbers
// they start with (src/keys/line_number.h), exactly, whatever their
// length, without converting them to machine numbers (as GNU's
// strnumcmp). A key without a number is zero, and -0 equals 0.
#pragma once

#include <cstdint>

#include "src/keys/line_key.h"

namespace gsort {

// <0, 0, >0 as the number in a[0, alen) is less than, equal to, greater
// than that in b[0, blen); `marks`: the locale's decimal point and
// thousands separator.
int compare_line_numbers(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen, NumberMarks marks = {});

// -h's: by the units after the numbers (line_number.h's line_unit_order:
// none < K < M < G < ... < Q, negative numbers' units reversed), then as
// -n compares. The unit's size does not matter (1023M sorts before 1G).
// `fold` ('f'): lower-case letters are units too (1e is 1E).
int compare_human_numbers(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen, bool fold,
                          NumberMarks marks = {});

}  // namespace gsort
