// The runs of one sort in the temporary directory: the directory (made, and
// said under -v, when the first file needs it), the identity in every run's
// header, how runs are written (the plan's block, writeback pacing,
// --compress-temp), and how they are read back and removed. Spills and
// merges write runs through RunOutput (run_output.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/codec/compress_program.h"
#include "io/file/record_source.h"
#include "io/run/run_file.h"
#include "io/run/run_view.h"
#include "io/temp/temp_dir.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"

namespace gsort {

struct RunStorage {
  uint64_t block_bytes = 0;    // the plan's write block, shared by a run's segments
  bool paced = false;          // past the page cache: written around it (O_DIRECT), else paced
  RunCompression compression;  // --compress-temp
};

class TempRuns {
 public:
  // directory: -T, where the temporary directory is made.
  // compress_program: --compress-program's PROG, or "" (none); `threads`
  // (--parallel) bounds its compressors running at once.
  TempRuns(std::string directory, const Log& log, uint32_t record_size, const std::string& compress_program = "",
           unsigned threads = 1);
  ~TempRuns();
  TempRuns(const TempRuns&) = delete;
  TempRuns& operator=(const TempRuns&) = delete;

  TempDir& dir();
  uint32_t record_size() const { return rs_; }
  uint64_t job_id() const { return job_id_; }

  // How runs are written: the plan's part (before any run), then, before
  // the first run, --compress-temp's choice (src/pipeline/temp_compression.h).
  const RunStorage& storage() const { return storage_; }
  void plan_writes(uint64_t block_bytes, bool paced);
  void compress(const RunCompression& compression) { storage_.compression = compression; }
  // `settled` is called once how runs are written is settled (before the
  // first run), with whether they are compressed: the room check counts
  // plain runs then (src/pipeline/room_check.h).
  void when_settled(std::function<void(bool compressed)> settled) { when_settled_ = std::move(settled); }
  void settled(bool compressed) const {
    if (when_settled_) when_settled_(compressed);
  }

  // A new segment file called after `stem` in the temporary directory,
  // paced where the plan says so; its identity and cleanup state go to
  // `segment`, the open file is returned (for its RunWriter).
  File new_segment(const char* stem, RunSegment& segment);
  // How each of `streams` segments written side by side is compressed:
  // together they compress about as many frames at once as the pool has
  // threads.
  RunCompression compression_for(unsigned streams) const;

  // Whether runs go through --compress-program: then they are read in
  // order only (open), never by range (view).
  bool through_program() const { return program_ != nullptr; }
  // A segment written whole (its header in place), its file still open:
  // with --compress-program, handed to the program, which writes it
  // compressed into the segment's `packed` file while gsort goes on (once
  // fewer compressors run than the bound, io/codec/compress_program.h);
  // where the program cannot be started, kept as it is (said once per
  // error, as sort does).
  void sealed(RunSegment& segment);

  // A spilled run as a merge source: its one segment, or its segments read
  // one after another; each is punched out as it is read (through
  // --compress-program: each read from its decompressor's pipe, started
  // once the segment before it is read, so `run` must stay until then).
  std::unique_ptr<RecordSource> open(PendingSource& run);
  // The run for reading any range of it, by many threads (the parallel
  // merge); its files stay the run's.
  std::unique_ptr<RunView> view(PendingSource& run);
  // Every run of `runs` viewed so, opened by the pool's threads (the final
  // merges in ranges, both units').
  std::vector<std::unique_ptr<RunView>> view(std::vector<PendingSource>& runs, ThreadPool& pool);
  // Closes the run's files, and so frees them.
  void remove(PendingSource& run);
  // The same for many runs, their files closed on the pool's threads: a
  // file's cached pages are freed by the thread that closes it.
  void remove(std::vector<PendingSource>& runs, ThreadPool& pool);

 private:
  // A segment through its decompressor, once its compressor is done.
  std::unique_ptr<RecordSource> open_through_program(RunSegment& segment);
  // The same, started at the segment's first read.
  std::unique_ptr<RecordSource> open_through_program_later(RunSegment& segment);

  const std::string directory_;
  const Log& log_;
  const uint32_t rs_;
  const uint64_t job_id_;
  RunStorage storage_;
  RunDecoderPool decoders_;  // shared by the readers of compressed runs
  std::unique_ptr<TempDir> dir_;
  std::function<void(bool)> when_settled_;
  std::atomic<bool> said_direct_{false};  // -v told that runs go around the cache
  std::unique_ptr<CompressProgram> program_;
  std::mutex program_mutex_;
  int last_spawn_error_ = 0;  // under program_mutex_: said once until another comes
};

}  // namespace gsort
