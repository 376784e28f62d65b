#include "src/lines/line_runs.h"

namespace gsort {

LineRunStore::LineRunStore(TempDir& dir, const RunCompression& compression, uint64_t job_id, uint64_t block_bytes,
                           uint8_t eol, const LineComparator* unique_by, LineVerify* verify)
    : dir_(dir),
      compression_(compression),
      job_id_(job_id),
      block_bytes_(block_bytes),
      eol_(eol),
      unique_by_(unique_by),
      verify_(verify) {}

LineRun LineRunStore::write(const std::function<void(LineWriter&)>& fill) {
  LineRun run;
  uint64_t number = 0;
  run.file = dir_.create_file("run", &number);
  run.identity = RunIdentity{job_id_, next_index_++};
  RunWriter writer(std::move(run.file.file), 1, compression_, run.identity);
  LineWriter lines([&writer](const uint8_t* data, size_t n) { writer.append(data, n); }, block_bytes_, eol_,
                   unique_by_);
  lines.verify_with(verify_, false);
  fill(lines);
  lines.finish();
  writer.finish(true);
  run.lines = lines.lines_written();
  run.bytes = lines.bytes_written();
  run.stored = writer.file_bytes();
  stored_ += run.stored;
  run.file.file = writer.take_file();
  return run;
}

std::unique_ptr<RecordSource> LineRunStore::open(LineRun& run) {
  return std::make_unique<RunReader>(std::move(run.file.file), 1, run.identity, &decoders_, true);
}

}  // namespace gsort
