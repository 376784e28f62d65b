// Random text lines and random GNU sort options for the line tests: tricky
// content on purpose (empty lines and fields, missing fields, runs of
// blanks, signs, decimal points, leading zeros, -0, '+', exponents and
// thousands separators that -n must not read, -h's units and unknown ones, '\r', NUL, bytes >= 0x80,
// shared prefixes, duplicates, very long lines, no final terminator).
#pragma once

#include <string>
#include <vector>

#include "tests/support/rng.h"

namespace gsort_test {

// One random combination of GNU sort's options for lines, as arguments
// (e.g. {"-t", ",", "-k2,2n", "-r"}), and what the data should look like.
struct LineOptionsCase {
  std::vector<std::string> args;
  char separator = 0;          // -t's byte, when has_separator
  bool has_separator = false;
  bool zero_terminated = false;
};

LineOptionsCase random_line_options(Rng& rng);

// A random input for `options`: lines ending with its terminator (the last
// one sometimes without it). max_lines bounds the count.
std::string random_line_input(Rng& rng, const LineOptionsCase& options, size_t max_lines);

// One random field (a number, a word, blanks, or nothing).
std::string random_line_field(Rng& rng, bool zero_terminated);

// Joins arguments for messages: -t ',' -k2,2n.
std::string join_args(const std::vector<std::string>& args);

}  // namespace gsort_test
