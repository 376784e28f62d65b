// --check: is the input already sorted (and, with -u, free of equal keys)?
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "src/keys/key_layout.h"

namespace gsort {

struct CheckResult {
  bool sorted = true;
  uint64_t bad_record = 0;  // 1-based number of the first record out of order
  uint64_t records = 0;     // records checked: all, or up to the first out of order
};

// Streams the input once. Throws gsort::Error on I/O or size errors.
// `bytes_read` (may be null) is advanced by each buffer's record bytes, for
// the progress line.
CheckResult check_sorted(const std::string& input, const KeyLayout& layout, bool strictly_increasing,
                         uint64_t buffer_bytes, std::atomic<uint64_t>* bytes_read = nullptr);

}  // namespace gsort
