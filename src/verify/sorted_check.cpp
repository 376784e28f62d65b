#include "src/verify/sorted_check.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/test_hooks.h"
#include "io/input/input_set.h"

namespace gsort {
namespace {

CheckResult disorder(const KeyLayout& layout, uint64_t record_number, const uint8_t* prev, const uint8_t* rec) {
  CheckResult r{false, record_number, (record_number - 1) * layout.record_size(), record_number, {}, {}};
  r.previous_key = raw_key_bytes(layout, prev);
  r.bad_key = raw_key_bytes(layout, rec);
  return r;
}

}  // namespace

std::vector<uint8_t> raw_key_bytes(const KeyLayout& layout, const uint8_t* record) {
  std::vector<uint8_t> bytes;
  bytes.reserve(layout.width());
  for (const KeyField& f : layout.fields()) bytes.insert(bytes.end(), record + f.offset, record + f.offset + f.length);
  return bytes;
}

CheckResult check_sorted(const std::string& input, const KeyLayout& layout, bool strictly_increasing,
                         uint64_t buffer_bytes, std::atomic<uint64_t>* bytes_read) {
  const uint32_t rs = layout.record_size();
  InputFile in(input, rs);
  const uint64_t capacity = std::max<uint64_t>(1, buffer_bytes / rs);
  HostBuffer buffer = HostBuffer::allocate_pageable(capacity * rs);
  std::vector<uint8_t> previous(rs);
  bool have_previous = false;
  uint64_t seen = 0;
  for (uint64_t reads = 0;; ++reads) {
    if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(reads);
    const uint64_t n = in.read(buffer.data(), capacity);
    if (n == 0) return CheckResult{true, 0, 0, seen, {}, {}};
    if (bytes_read) bytes_read->fetch_add(n * rs, std::memory_order_relaxed);
    for (uint64_t i = 0; i < n; ++i) {
      const uint8_t* rec = buffer.data() + i * rs;
      const uint8_t* prev = i == 0 ? previous.data() : rec - rs;
      if (i > 0 || have_previous) {
        const int c = layout.compare(prev, rec);
        if (out_of_order(c, strictly_increasing)) {
          in.check_unchanged();  // a disorder in a file written meanwhile says nothing of it
          return disorder(layout, seen + i + 1, prev, rec);
        }
      }
    }
    std::memcpy(previous.data(), buffer.data() + (n - 1) * rs, rs);
    have_previous = true;
    seen += n;
  }
}

}  // namespace gsort
