#include "src/merge/temp_runs.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "io/file/deferred_source.h"
#include "io/run/piped_run_reader.h"
#include "io/run/run_segments.h"
#include "src/core/errors.h"

namespace gsort {

TempRuns::TempRuns(std::string directory, const Log& log, uint32_t record_size, const std::string& compress_program,
                   unsigned threads)
    : directory_(std::move(directory)), log_(log), rs_(record_size), job_id_(new_job_id()) {
  if (!compress_program.empty()) {
    program_ = std::make_unique<CompressProgram>(compress_program, CompressProgram::compressors_for(threads));
  }
}

TempRuns::~TempRuns() = default;

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
  if (program_) segment.packed = dir().create_file(stem, &number);
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

void TempRuns::sealed(RunSegment& segment) {
  if (!program_) return;
  int error = 0;
  const CompressProgram::Child compressor =
      program_->start_compressor(segment.file.file.fd(), segment.packed.file.fd(), &error);
  if (compressor == 0) {
    dir().remove(segment.packed);
    std::lock_guard<std::mutex> lock(program_mutex_);
    if (error != last_spawn_error_) {
      print_diagnostic("gsort: could not run compress program " + program_->quoted() + ": " + std::strerror(error));
    }
    last_spawn_error_ = error;
    return;
  }
  // The program reads its own descriptor of the plain file: gsort's goes,
  // and the file with the program.
  dir().remove(segment.file);
  segment.file = std::move(segment.packed);
  segment.packed = TempFile();
  segment.compressor = compressor;
  segment.through_program = true;
}

std::unique_ptr<RecordSource> TempRuns::open(PendingSource& run) {
  std::vector<std::unique_ptr<RecordSource>> readers;
  for (RunSegment& segment : run.segments) {
    if (segment.through_program) {
      readers.push_back(readers.empty() ? open_through_program(segment) : open_through_program_later(segment));
      continue;
    }
    readers.push_back(
        std::make_unique<RunReader>(std::move(segment.file.file), rs_, segment.identity, &decoders_, true));
  }
  if (readers.size() == 1) return std::move(readers.front());
  return std::make_unique<RunSegmentsReader>(std::move(readers), rs_);
}

std::unique_ptr<RecordSource> TempRuns::open_through_program(RunSegment& segment) {
  CompressProgram& program = *program_;
  program.wait(std::exchange(segment.compressor, 0));
  int read_end = -1, error = 0;
  const CompressProgram::Child decompressor = program.start_decompressor(segment.file.file.fd(), &read_end, &error);
  if (decompressor == 0) {
    throw Error("could not run compress program " + program.quoted() + " -d: " + std::strerror(error));
  }
  PipeWriter writer{[&program, decompressor] { program.wait(decompressor); },
                    [&program, decompressor] { program.stop(decompressor); }};
  auto reader = std::make_unique<PipedRunReader>(File(read_end, segment.file.file.path(), true), rs_,
                                                 segment.identity, std::move(writer));
  if (reader->size_hint() != segment.records) {
    throw DataError("run file " + segment.file.file.path() + " holds " + std::to_string(reader->size_hint()) +
                    " records, not the " + std::to_string(segment.records) + " written");
  }
  return reader;
}

std::unique_ptr<RecordSource> TempRuns::open_through_program_later(RunSegment& segment) {
  return std::make_unique<DeferredSource>(segment.file.file.path(), segment.records,
                                          [this, &segment] { return open_through_program(segment); });
}

std::vector<std::unique_ptr<RunView>> TempRuns::view(std::vector<PendingSource>& runs, ThreadPool& pool) {
  std::vector<std::unique_ptr<RunView>> views(runs.size());
  pool.parallel_for(runs.size(), [&](size_t i) { views[i] = view(runs[i]); });
  return views;
}

std::unique_ptr<RunView> TempRuns::view(PendingSource& run) {
  if (program_) throw Error("internal error: a run compressed by --compress-program read by range");
  std::vector<RunViewSegment> segments;
  for (RunSegment& segment : run.segments) segments.push_back(RunViewSegment{&segment.file.file, segment.identity});
  return std::make_unique<RunView>(std::move(segments), rs_, &decoders_);
}

void TempRuns::remove(PendingSource& run) {
  for (RunSegment& segment : run.segments) {
    dir().remove(segment.file);
    if (segment.packed.file.fd() >= 0) dir().remove(segment.packed);
  }
}

void TempRuns::remove(std::vector<PendingSource>& runs, ThreadPool& pool) {
  std::vector<TempFile*> files;
  for (PendingSource& run : runs) {
    for (RunSegment& segment : run.segments) {
      files.push_back(&segment.file);
      if (segment.packed.file.fd() >= 0) files.push_back(&segment.packed);
    }
  }
  if (files.empty()) return;
  TempDir& d = dir();
  pool.parallel_for(files.size(), [&](size_t i) { d.remove(*files[i]); });
}

}  // namespace gsort
