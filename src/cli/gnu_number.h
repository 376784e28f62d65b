// Numbers as GNU sort reads its options' values (gnulib's xstrtoumax in
// base 10), and its words when one is wrong (xstrtol_fatal). Blanks and a
// '+' may come before the digits, a '-' may not. A letter of `units`
// after them scales by powers of 1024 (k K 1, m M 2, g G 3, t T 4, P 5,
// E 6, Z 7, Y 8, R 9, Q 10) and, without digits, stands for one of itself
// ("K" is 1024); anything else after the digits, or after the letter, is
// an invalid suffix. A value past 64 bits saturates and is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gsort {

// What was wrong with a number, as bits (gnulib's strtol_error): an
// invalid suffix may come with an overflow; kInvalid stands alone.
enum NumberStatus : unsigned {
  kNumberOk = 0,
  kNumberOverflow = 1,
  kNumberInvalidSuffix = 2,
  kNumberInvalid = 4,
};

struct GnuNumber {
  uint64_t value = 0;
  unsigned status = kNumberOk;
  // Where reading stopped: past the unit letter, or at the invalid suffix.
  size_t end = 0;
};

GnuNumber read_gnu_number(const std::string& text, const char* units);

// The message for a number that is not kNumberOk, as sort words it:
// "invalid suffix in -S argument '1x'". option: as the user named it
// ("-S", "--buffer-size").
std::string gnu_number_error(unsigned status, const std::string& option, const std::string& text);

}  // namespace gsort
