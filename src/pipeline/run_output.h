// Run writing: a run file in the temporary directory, filled through an
// OutputWriter (write-behind buffers) whose sink is the run's RunWriter
// (compressed with --compress-temp). Both spilling a sorted chunk and an
// intermediate merge pass write their runs through this.
#pragma once

#include <cstdint>
#include <string>

#include "src/output/output_writer.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

class RunOutput {
 public:
  // Makes a new run file called after `stem` in the job's temp directory;
  // its identity goes to `run` now, its open file at finish().
  RunOutput(SortJob& job, const char* stem, PendingSource& run);
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  OutputWriter& records() { return out_; }
  // Writes what is buffered, then the run's header, and hands the file,
  // still open, to the run; the job's report counts its bytes.
  void finish();

 private:
  SortJob& job_;
  PendingSource& run_;
  RunWriter writer_;
  OutputWriter out_;  // after writer_: its write-behind thread stops first
};

}  // namespace gsort
