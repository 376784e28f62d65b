// --verify: the last stage checks what goes to the destination against
// what was read from the inputs, so that a fault anywhere in between (a
// backend bug, a bad buffer, a damaged run that slipped through) fails the
// run instead of leaving a wrong output in place.
//
// Three things are checked:
//  - order: every record sorts at or after the one before it (strictly
//    after with -u), checked on adjacent records as they are written;
//  - count: records written (+ records -u dropped) == records read;
//  - content: the order-independent checksum of the records written (the
//    sum mod 2^64 of hash_record over them, + the same sum over the records
//    -u dropped) == the sum over the records read.
// With -u, a record is dropped only when its key equals that of the record
// kept just before it, so "input = output + dropped" as multisets, with every
// dropped record's key present in the output, is what a correct -u leaves;
// the sums check exactly that, and the strict order check that no two kept
// records share a key.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/verify/ledger.h"

namespace gsort {

class OutputCheck {
 public:
  // strictly_increasing: -u (no two output records may have equal keys).
  OutputCheck(const KeyLayout& layout, bool strictly_increasing, ThreadPool& pool);

  // The next `count` records going to the destination, in order. Throws
  // DataError naming the first record out of order.
  void observe(const uint8_t* records, uint64_t count);
  // A record that -u dropped (its key equals the last kept record's).
  void dropped(const uint8_t* record);
  // Records that -u dropped, counted elsewhere: how many, and the sum of
  // their hash_record.
  void dropped_many(uint64_t records, uint64_t hash_sum);
  // Compares with what the inputs delivered; throws DataError on a mismatch.
  void finish(uint64_t input_records, uint64_t input_hash_sum);

  uint64_t records() const { return ledger_.written_units(); }
  uint64_t hash_sum() const { return ledger_.written_hash_sum(); }
  uint64_t dropped_records() const { return ledger_.dropped_units(); }

 private:
  // Index (within records) of the first record in [begin, end) that sorts
  // before its predecessor, else `end`; also sums the records' hashes.
  uint64_t scan(const uint8_t* records, uint64_t begin, uint64_t end, uint64_t* sum) const;
  bool in_order(const uint8_t* a, const uint8_t* b) const;

  const KeyLayout& layout_;
  const bool strict_;
  ThreadPool& pool_;
  const uint32_t rs_;
  std::vector<uint8_t> last_;  // the last record observed
  bool have_last_ = false;
  VerifyLedger ledger_;
};

}  // namespace gsort
