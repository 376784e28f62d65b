// Which rank's key range a line falls in (issue 55), for lines that go to
// their ranks before they are sorted: a slice of the inputs routed by
// every rank (routed_slice.h), or standard input routed by rank 0
// (streamed_lines.h). The splitters are samples (sorted_line_part.h's
// LineSample, `at` the line's place in the inputs end to end) in the ranks'
// total order: by key, then by place, so that equal lines split by where
// they lie and each rank's lines, sorted stably, are one process's output
// for its range. Under -u (whole keys) lines of one key go to one rank.
#pragma once

#include <cstdint>
#include <vector>

#include "src/distributed/lines/sorted_line_part.h"
#include "src/keys/line_compare.h"

namespace gsort {

class LineRouter {
 public:
  LineRouter(const LineComparator& compare, bool whole_keys) : compare_(compare), whole_keys_(whole_keys) {}

  // The splitters at `ranks` even shares of `samples`' weights (total bytes).
  void choose(const std::vector<LineSample>& samples, uint64_t total, int ranks);
  // The rank of the line (`length` bytes, no terminator) at `place`: how
  // many splitters it does not sort before. Thread-safe.
  int rank_of(const uint8_t* line, uint64_t length, uint64_t place) const;

 private:
  const LineComparator& compare_;
  const bool whole_keys_;
  std::vector<LineSample> splitters_;
};

}  // namespace gsort
