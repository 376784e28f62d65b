// --verify for lines: the records' ledger (src/verify/ledger.h), with the
// line comparison the writer checks the order by (with -u, strictly).
#pragma once

#include <cstdint>

#include "src/algo/line_index.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/verify/ledger.h"

namespace gsort {

class LineVerify : public VerifyLedger {
 public:
  explicit LineVerify(const LineSpec& spec) : VerifyLedger("line", spec.unique), compare_(spec) {}

  const LineComparator& comparison() const { return compare_; }

 private:
  LineComparator compare_;
};

// The hash of one line (its bytes, no terminator).
uint64_t hash_line(const uint8_t* line, uint64_t len);
// The sum of the hashes of a chunk's lines, on the pool's threads.
uint64_t hash_lines(ThreadPool& pool, const LineSpan& lines);

}  // namespace gsort
