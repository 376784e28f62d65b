// One worker of the lines' final merge in ranges (parallel.h): merges one
// range of every run at a time straight into its place in the output. Each
// run's part is read in pieces (run_bytes.h) into a buffer of the worker's
// own, a run file's checked block by block; a line that goes on past the
// buffer is put together in a buffer of its head's. A loser tree over the
// heads (first image words, then the full comparison, ties to the earlier
// run) picks each next line, copied once, with its terminator, into the
// output.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "src/lines/merge/run_bytes.h"
#include "src/core/host_buffer.h"
#include "src/lines/keys/compare.h"

namespace gsort {

struct LineRangeResult {
  uint64_t lines = 0;  // written
  uint64_t bytes = 0;  // written, terminators included
  double read_s = 0;   // reading and checking the runs' blocks
};

class LineRangeMerger {
 public:
  // buffer_bytes: each run's read buffer (at least its least_buffer_bytes()).
  LineRangeMerger(const std::vector<const RunBytes*>& runs, const LineComparator& compare, uint8_t eol,
                  uint64_t buffer_bytes);

  // Merges bytes [begin[r], end[r]) of each run r (whole lines) into `out`,
  // which has room for all of them. bytes_read (may be null) is advanced by
  // the bytes each buffer delivers.
  LineRangeResult merge(const std::vector<uint64_t>& begin, const std::vector<uint64_t>& end, uint8_t* out,
                        std::atomic<uint64_t>* bytes_read);

 private:
  struct Head;
  const std::vector<const RunBytes*> runs_;
  const LineComparator& compare_;
  const uint8_t eol_;
  const uint64_t buffer_bytes_;
  HostBuffer buffers_;  // one buffer per run, end to end
};

}  // namespace gsort
