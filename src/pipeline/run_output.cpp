#include "src/pipeline/run_output.h"

namespace gsort {
namespace {

// The run's file in the job's temp directory, its identity and cleanup
// state recorded in `run`.
File new_run_file(SortJob& job, const char* stem, PendingSource& run) {
  uint64_t number = 0;
  TempFile made = job.temp_dir().create_file(stem, &number);
  run.identity = RunIdentity{job.job_id, number};
  run.run.named = made.named;
  run.run.slot = made.slot;
  return std::move(made.file);
}

}  // namespace

RunOutput::RunOutput(SortJob& job, const char* stem, PendingSource& run)
    : job_(job),
      run_(run),
      writer_(new_run_file(job, stem, run), job.rs, job.run_compression, run.identity),
      out_([this](const uint8_t* data, size_t bytes) { writer_.append(data, bytes / job_.rs); }, job.rs,
           job.plan.block_bytes, nullptr) {}

void RunOutput::finish() {
  out_.finish();
  writer_.finish(true);
  run_.run.file = writer_.take_file();
  job_.report.temp_bytes += writer_.file_bytes();
  job_.report.temp_record_bytes += writer_.record_count() * job_.rs;
}

}  // namespace gsort
