// Runs of lines spilled to the temporary directory, kept as the record
// sort keeps its runs (src/merge/temp_runs.h, one-byte records): each run a
// PendingSource of one or more segment files (header, identity, checksums,
// zstd frames when --compress-temp says so), unnamed, read back through
// the descriptor they were written by and punched out as they are read.
// A run's bytes are its lines with their terminators, in order.
//
// A sorted chunk is cut into as many contiguous slices as there are
// streams, each written by its own LineWriter (write-behind thread) into
// its own segment, side by side, as records are (src/merge/run_output.h);
// a merge writes one stream. The files are made by the constructor, on the
// calling thread; the rest may run on another thread, one at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/lines/output/writer.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"

namespace gsort {

// What a finished run holds.
struct LineRunFigures {
  uint64_t lines = 0;
  uint64_t bytes = 0;       // the lines' bytes, terminators included
  uint64_t file_bytes = 0;  // as stored
};

class LineRunOutput {
 public:
  // verify: --verify's, told of the lines -u drops (or null).
  LineRunOutput(TempRuns& runs, PendingSource& run, unsigned streams, uint8_t eol, const LineComparator* unique_by,
                LineVerify* verify);
  ~LineRunOutput();
  LineRunOutput(const LineRunOutput&) = delete;
  LineRunOutput& operator=(const LineRunOutput&) = delete;

  // One stream only: its writer, for lines appended in order (a merge).
  LineWriter& lines();
  // lines[order[0, count)], cut into one slice per stream; a block of each
  // slice in turn is gathered by the pool while the streams' threads write.
  void append_sorted(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count);
  // Writes what is buffered, then each segment's header, and hands the
  // files, still open, to the run.
  LineRunFigures finish();

 private:
  struct Stream;
  TempRuns& runs_;
  PendingSource& run_;
  std::vector<std::unique_ptr<Stream>> streams_;
};

}  // namespace gsort
