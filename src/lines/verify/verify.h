// --verify for lines, as for records: before the output is put in place,
// it must be in order (by the line comparison; with -u, strictly) and hold
// the input's lines: the count and the order-independent sum of the lines'
// hashes (io/checksum.h) of the input equal those of the lines written
// plus those -u dropped. Thread-safe: the writer's and the reader's
// threads add to it.
#pragma once

#include <atomic>
#include <cstdint>

#include "src/core/thread_pool.h"
#include "src/lines/keys/compare.h"
#include "src/lines/sort/index.h"

namespace gsort {

class LineVerify {
 public:
  explicit LineVerify(const LineSpec& spec) : compare_(spec) {}

  const LineComparator& comparison() const { return compare_; }
  void input(uint64_t lines, uint64_t hash_sum);
  void written(uint64_t lines, uint64_t hash_sum);
  void dropped(uint64_t lines, uint64_t hash_sum);
  // Output line `number` (from 1) sorts before the one written before it.
  void disorder(uint64_t number);
  // Throws DataError naming what differs.
  void finish() const;
  uint64_t input_hash_sum() const { return in_sum_.load(); }

 private:
  LineComparator compare_;
  std::atomic<uint64_t> in_lines_{0}, in_sum_{0}, out_lines_{0}, out_sum_{0}, drop_lines_{0}, drop_sum_{0};
  std::atomic<uint64_t> first_disorder_{0};
};

// The hash of one line (its bytes, no terminator).
uint64_t hash_line(const uint8_t* line, uint64_t len);
// The sum of the hashes of a chunk's lines, on the pool's threads.
uint64_t hash_lines(ThreadPool& pool, const LineSpan& lines);

}  // namespace gsort
