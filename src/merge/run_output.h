// Run writing: a run in the temporary directory as one or more segment
// files (spill streams), each filled through its own OutputWriter (write-
// behind buffers and thread) whose sink is the segment's RunWriter
// (compressed with --compress-temp). A sorted chunk is cut into as many
// contiguous slices as there are streams and the slices are written side
// by side: separate files do not serialise on one inode the way one file
// does. An intermediate merge writes one stream. Both spilling a sorted
// chunk and a merge into a run write through this.
//
// The segment files are made by the constructor, on the calling thread;
// what follows (append_gathered, finish) may run on another thread, as
// long as one thread at a time uses the object: it touches nothing of the
// TempRuns but the files it made.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/output/output_writer.h"
#include "src/report/sort_report.h"

namespace gsort {

// What a finished run wrote, for the report.
struct RunFigures {
  uint64_t file_bytes = 0;    // as stored (compressed with --compress-temp)
  uint64_t record_bytes = 0;  // records, before compression
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
  struct Stream;
  TempRuns& runs_;
  PendingSource& run_;
  std::vector<std::unique_ptr<Stream>> streams_;
};

// Slices [next[s], end[s]) of a sorted chunk fed to their streams a block at
// a time, in turn: block(s, from, left) fills stream s's current block from
// `from` and returns how many it took. Every stream's thread then has a
// buffer to write while the next ones are gathered.
void fill_slices_in_turn(std::vector<uint64_t> next, const std::vector<uint64_t>& end,
                         const std::function<uint64_t(size_t s, uint64_t from, uint64_t left)>& block);
// The segment's header written and its file, still open, handed to
// `segment` (and sealed: TempRuns::sealed); returns its bytes on disk.
uint64_t close_segment(RunWriter& writer, RunSegment& segment, TempRuns& runs);

// Adds a finished run's figures to the report (on the main thread).
void count_run(const RunFigures& figures, SortReport& report);

}  // namespace gsort
