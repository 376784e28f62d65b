// The destination mapped whole, for the writer that fills it in any order
// on many threads (the parallel final merge, src/merge/parallel_merge.h).
// It writes its records anywhere in the range, with -u applied, and ends
// with the records it kept at the front; finish() then shows them, in
// order and in blocks, to what a stream writer shows each block as it goes:
// the test hook, and --verify's check (order, count, checksum), with the
// records -u dropped counted in.
#pragma once

#include <atomic>
#include <cstdint>

#include "src/keys/key_layout.h"
#include "src/verify/output_check.h"

namespace gsort {

class MappedRecords {
 public:
  // data: the range's first byte, `bytes` long. unique_by: -u's layout or
  // null; check: --verify's or null; written: advanced by the bytes
  // finished (the progress line).
  MappedRecords(uint8_t* data, uint64_t bytes, uint32_t record_size, const KeyLayout* unique_by, OutputCheck* check,
                std::atomic<uint64_t>* written)
      : data_(data), bytes_(bytes), rs_(record_size), unique_by_(unique_by), check_(check), written_(written) {}

  uint8_t* data() const { return data_; }
  uint64_t bytes() const { return bytes_; }
  const KeyLayout* unique_by() const { return unique_by_; }
  // Whether the records -u drops must be summed for dropped().
  bool counts_dropped() const { return check_ != nullptr; }

  // Records -u dropped: how many, and the sum of their hash_record.
  void dropped(uint64_t records, uint64_t hash_sum);
  // The first `records` records are the output, in order: each block is
  // shown to the hook and the check (which throws on a fault).
  void finish(uint64_t records);
  uint64_t records_written() const { return records_; }

 private:
  uint8_t* const data_;
  const uint64_t bytes_;
  const uint32_t rs_;
  const KeyLayout* const unique_by_;
  OutputCheck* const check_;
  std::atomic<uint64_t>* const written_;
  uint64_t records_ = 0;
};

}  // namespace gsort
