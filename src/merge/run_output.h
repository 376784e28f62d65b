// Run writing for records: the run writer (run_streams.h) with an
// OutputWriter a stream. Both spilling a sorted chunk and a merge into a
// run write through this.
#pragma once

#include <cstdint>

#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/run_streams.h"
#include "src/merge/temp_runs.h"
#include "src/output/output_writer.h"
#include "src/report/sort_report.h"

namespace gsort {

// What a finished run wrote, for the report.
struct RunFigures {
  uint64_t file_bytes = 0;    // as stored (compressed with --compress-temp)
  uint64_t record_bytes = 0;  // records, before compression
  double gather_s = 0;        // the streams' gathers (OutputWriter::gather_seconds)
};

class RunOutput {
 public:
  // Makes `streams` segment files called after `stem` in the temporary
  // directory; their identities go to `run` now, their open files at
  // finish(). streams: at least 1; the plan's block is shared between them.
  RunOutput(TempRuns& runs, const char* stem, PendingSource& run, unsigned streams = 1);
  ~RunOutput();
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  // One stream only: its writer, for records appended in order (a merge).
  OutputWriter& records();
  // records[order[0..count)], cut into one contiguous slice per stream;
  // the pool gathers a block of each slice in turn while the streams'
  // threads write.
  void append_gathered(ThreadPool& pool, const uint8_t* records, const uint32_t* order, uint64_t count);
  // Writes what is buffered, then each segment's header, and hands the
  // files, still open, to the run.
  RunFigures finish();

 private:
  RunStreams<OutputWriter> streams_;
};

// Adds a finished run's figures to the report (on the main thread).
void count_run(const RunFigures& figures, SortReport& report);

}  // namespace gsort
