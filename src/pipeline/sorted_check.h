// --check: is the input already sorted (and, with -u, free of equal keys)?
#pragma once

#include <string>

#include "keys/key_layout.h"

namespace gsort {

struct CheckResult {
  bool sorted = true;
  uint64_t bad_record = 0;  // 1-based number of the first record out of order
};

// Streams the input once. Throws gsort::Error on I/O or size errors.
CheckResult check_sorted(const std::string& input, const KeyLayout& layout, bool strictly_increasing,
                         uint64_t buffer_bytes);

}  // namespace gsort
