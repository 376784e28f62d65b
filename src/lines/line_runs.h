// Sorted runs of lines spilled to the temporary directory. A run's bytes
// are its lines with their terminators, in order, kept as a run file of
// one-byte records (io/run_file.h): header, identity, checksums, and zstd
// frames when temp compression is on. Runs are unnamed files
// (io/temp_dir.h), read back through the descriptor they were written by,
// and punched out as they are read.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "io/run/run_file.h"
#include "io/temp/temp_dir.h"
#include "src/lines/line_writer.h"

namespace gsort {

struct LineRun {
  TempFile file;
  RunIdentity identity;
  uint64_t lines = 0;
  uint64_t bytes = 0;   // the lines' bytes, terminators included
  uint64_t stored = 0;  // bytes on disk
};

class LineRunStore {
 public:
  // verify: --verify's, told of the lines -u drops from runs (or null).
  LineRunStore(TempDir& dir, const RunCompression& compression, uint64_t job_id, uint64_t block_bytes, uint8_t eol,
               const LineComparator* unique_by, LineVerify* verify);

  // Writes one run through a LineWriter that `fill` appends lines to.
  LineRun write(const std::function<void(LineWriter&)>& fill);
  // A reader of the run, which punches the run out as it reads; the run's
  // file is handed to it.
  std::unique_ptr<RecordSource> open(LineRun& run);
  // Bytes written to run files so far (as stored).
  uint64_t stored_bytes() const { return stored_; }

 private:
  TempDir& dir_;
  RunCompression compression_;
  uint64_t job_id_;
  uint64_t next_index_ = 0;
  uint64_t block_bytes_;
  uint8_t eol_;
  const LineComparator* unique_by_;
  LineVerify* verify_;
  RunDecoderPool decoders_;
  uint64_t stored_ = 0;
};

}  // namespace gsort
