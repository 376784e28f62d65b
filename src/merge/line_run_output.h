// Runs of lines spilled to the temporary directory, kept as the record
// sort keeps its runs (src/merge/temp_runs.h, one-byte records): each run a
// PendingSource of one or more segment files (header, identity, checksums,
// zstd frames when --compress-temp says so), unnamed, read back through
// the descriptor they were written by and punched out as they are read.
// A run's bytes are its lines with their terminators, in order.
//
// The run writer is the records' (src/merge/run_streams.h) with a
// LineWriter a stream: a sorted chunk cut into one contiguous slice per
// stream, written side by side; a merge writes one stream.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/run_streams.h"
#include "src/merge/temp_runs.h"
#include "src/output/line_writer.h"

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
  RunStreams<LineWriter> streams_;
};

}  // namespace gsort
