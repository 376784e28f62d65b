#include "src/pipeline/run_output.h"

namespace gsort {
namespace {

std::string new_run_path(SortJob& job, const char* stem, PendingSource& run) {
  run.run_path = job.temp_dir().new_file(stem, &run.run_slot);
  return run.run_path;
}

}  // namespace

RunOutput::RunOutput(SortJob& job, const char* stem, PendingSource& run)
    : job_(job),
      writer_(new_run_path(job, stem, run), job.rs, job.run_compression),
      out_([this](const uint8_t* data, size_t bytes) { writer_.append(data, bytes / job_.rs); }, job.rs,
           job.plan.block_bytes, nullptr) {}

void RunOutput::finish() {
  out_.finish();
  writer_.finish();
  job_.report.temp_bytes += writer_.file_bytes();
  job_.report.temp_record_bytes += writer_.record_count() * job_.rs;
}

}  // namespace gsort
