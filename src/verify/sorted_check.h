// --check: is the input already sorted (and, with -u, free of equal keys)?
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "src/keys/key_layout.h"

namespace gsort {

struct CheckResult {
  bool sorted = true;
  uint64_t bad_record = 0;  // 1-based number of the first record out of order
  uint64_t bad_offset = 0;  // its byte offset in the (decompressed) input
  uint64_t records = 0;     // records checked: all, or up to the first out of order
  // When not sorted: the key fields' bytes, as they stand in the records
  // (fields one after another), of the record before and of that record.
  std::vector<uint8_t> previous_key, bad_key;
};

// Whether a unit that compares `order` (<0, 0, >0) against the one before
// it may not follow it: it sorts before it, or equal where the check is
// strict (-u: no two equal).
inline bool out_of_order(int order, bool strict) { return order > 0 || (strict && order == 0); }

// The key fields' bytes of a record, as they stand in it, one after another.
std::vector<uint8_t> raw_key_bytes(const KeyLayout& layout, const uint8_t* record);

// Streams the input once. Throws gsort::Error on I/O or size errors.
// `bytes_read` (may be null) is advanced by each buffer's record bytes, for
// the progress line.
CheckResult check_sorted(const std::string& input, const KeyLayout& layout, bool strictly_increasing,
                         uint64_t buffer_bytes, std::atomic<uint64_t>* bytes_read = nullptr);

}  // namespace gsort
