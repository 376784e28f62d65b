// --verify's account, the same for records and lines: what the inputs
// delivered, what went to the destination and what -u dropped (each a
// count and the order-independent sum of the units' hashes, io/file/
// checksum.h), and the first unit written out of order. The sort passes when
// the output is in order and input = written + dropped as multisets, which
// the counts and the sums check. Thread-safe: readers, the writer and its
// tasks add to it at once. One place words the verdict, whatever the unit.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace gsort {

class VerifyLedger {
 public:
  // unit: "record" or "line", for the messages. strictly_increasing: -u, so
  // that an equal neighbour is disorder too.
  VerifyLedger(const char* unit, bool strictly_increasing) : unit_(unit), strict_(strictly_increasing) {}

  void input(uint64_t units, uint64_t hash_sum);
  void written(uint64_t units, uint64_t hash_sum);
  void dropped(uint64_t units, uint64_t hash_sum);
  // Output unit `number` (from 1) does not follow the one before it. The
  // smallest number reported is kept.
  void disorder(uint64_t number);

  // Throws DataError for the first disorder, else for counts or sums that
  // differ.
  void finish() const;
  // The DataError for a disorder at `number`, for a check that stops at once.
  [[noreturn]] void throw_disorder(uint64_t number) const;

  uint64_t input_hash_sum() const { return in_sum_.load(); }
  uint64_t written_units() const { return out_units_.load(); }
  uint64_t written_hash_sum() const { return out_sum_.load(); }
  uint64_t dropped_units() const { return drop_units_.load(); }

 private:
  std::string units(uint64_t n) const;

  const char* const unit_;
  const bool strict_;
  std::atomic<uint64_t> in_units_{0}, in_sum_{0}, out_units_{0}, out_sum_{0}, drop_units_{0}, drop_sum_{0};
  std::atomic<uint64_t> first_disorder_{0};  // 0: none
};

}  // namespace gsort
