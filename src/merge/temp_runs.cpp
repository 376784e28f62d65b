#include "src/merge/temp_runs.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "io/run/run_segments.h"

namespace gsort {

TempRuns::TempRuns(std::string directory, const Log& log, uint32_t record_size)
    : directory_(std::move(directory)), log_(log), rs_(record_size), job_id_(new_job_id()) {}

TempDir& TempRuns::dir() {
  if (!dir_) {
    dir_ = std::make_unique<TempDir>(directory_);
    log_.info("temporary directory: " + dir_->path());
  }
  return *dir_;
}

void TempRuns::plan_writes(uint64_t block_bytes, bool paced) {
  storage_.block_bytes = block_bytes;
  storage_.paced = paced;
}

File TempRuns::new_segment(const char* stem, RunSegment& segment) {
  uint64_t number = 0;
  TempFile made = dir().create_file(stem, &number);
  segment.identity = RunIdentity{job_id_, number};
  segment.file.named = made.named;
  segment.file.slot = made.slot;
  // Runs larger than the page cache's room go around it where the file
  // system takes direct writes (as the output does), else paced.
  if (storage_.paced) {
    const uint64_t staging = 2 * storage_.block_bytes;
    if (!made.file.write_around_cache(staging)) {
      made.file.pace_writeback();
    } else if (!said_direct_.exchange(true)) {
      log_.info("runs: written around the page cache (O_DIRECT), in blocks of " + mebibytes_text(staging / 2));
    }
  }
  return std::move(made.file);
}

RunCompression TempRuns::compression_for(unsigned streams) const {
  RunCompression compression = storage_.compression;
  if (compression.pool) {
    compression.frames_at_once = std::max(1u, (compression.pool->size() + streams - 1) / streams);
  }
  return compression;
}

std::unique_ptr<RecordSource> TempRuns::open(PendingSource& run) {
  std::vector<std::unique_ptr<RunReader>> readers;
  for (RunSegment& segment : run.segments) {
    readers.push_back(
        std::make_unique<RunReader>(std::move(segment.file.file), rs_, segment.identity, &decoders_, true));
  }
  if (readers.size() == 1) return std::move(readers.front());
  return std::make_unique<RunSegmentsReader>(std::move(readers));
}

std::unique_ptr<RunView> TempRuns::view(PendingSource& run) {
  std::vector<RunViewSegment> segments;
  for (RunSegment& segment : run.segments) segments.push_back(RunViewSegment{&segment.file.file, segment.identity});
  return std::make_unique<RunView>(std::move(segments), rs_, &decoders_);
}

void TempRuns::remove(PendingSource& run) {
  for (RunSegment& segment : run.segments) dir().remove(segment.file);
}

void TempRuns::remove(std::vector<PendingSource>& runs, ThreadPool& pool) {
  std::vector<TempFile*> files;
  for (PendingSource& run : runs) {
    for (RunSegment& segment : run.segments) files.push_back(&segment.file);
  }
  if (files.empty()) return;
  TempDir& d = dir();
  pool.parallel_for(files.size(), [&](size_t i) { d.remove(*files[i]); });
}

}  // namespace gsort
