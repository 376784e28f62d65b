// -c / -C for lines: whether the input is sorted by the line comparison
// (with -u, strictly: equal lines are disorder), and where it first is
// not, as GNU sort tells it: "FILE:LINE: disorder: TEXT".
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "src/keys/line_compare.h"
#include "src/verify/sorted_check.h"

namespace gsort {

// Reads `input` once. bad_record is the 1-based number of the first line
// out of order and bad_key its text; records counts the lines read.
CheckResult check_sorted_lines(const std::string& input, const LineComparator& compare, uint64_t max_line,
                               std::atomic<uint64_t>* bytes_read);

// "FILE:N: disorder: TEXT" (FILE "-" for standard input, as GNU sort).
std::string describe_line_disorder(const std::string& input, const CheckResult& r);

}  // namespace gsort
