// The run writer, the same for records and lines: a run in the temporary
// directory as one or more segment files (spill streams), each filled
// through its own writer of units (OutputWriter for records, LineWriter for
// lines: write-behind buffers and a thread) whose sink is the segment's
// RunWriter (compressed with --compress-temp). A sorted chunk is cut into
// as many contiguous slices as there are streams, written side by side:
// separate files do not serialise on one inode the way one file does. An
// intermediate merge writes one stream.
//
// The segment files are made by the constructor, on the calling thread;
// what follows may run on another thread, one thread at a time: it touches
// nothing of the TempRuns but the files it made.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "io/output/write_behind.h"
#include "io/run/run_file.h"
#include "src/core/thread_pool.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"

namespace gsort {

// Slices [next[s], end[s]) of a sorted chunk fed to their streams a block at
// a time, in turn: block(s, from, left) fills stream s's current block from
// `from` and returns how many it took. Every stream's thread then has a
// buffer to write while the next ones are gathered.
void fill_slices_in_turn(std::vector<uint64_t> next, const std::vector<uint64_t>& end,
                         const std::function<uint64_t(size_t s, uint64_t from, uint64_t left)>& block);
// The segment's header written and its file, still open, handed to
// `segment` (and sealed: TempRuns::sealed); returns its bytes on disk.
uint64_t close_segment(RunWriter& writer, RunSegment& segment, TempRuns& runs);

template <typename Writer>
class RunStreams {
 public:
  // The writer of one stream, `block_bytes` a buffer, feeding `sink`.
  using MakeWriter = std::function<std::unique_ptr<Writer>(WriteBehind::Sink sink, uint64_t block_bytes)>;

  // Makes `streams` (at least 1) segment files called after `stem`; their
  // identities go to `run` now, their open files at finish(). The plan's
  // block (the write-behind buffers) and the pool's threads are shared by
  // the streams, so that memory stays what the plan counted.
  RunStreams(TempRuns& runs, const char* stem, PendingSource& run, unsigned streams, const MakeWriter& make)
      : runs_(runs), run_(run) {
    streams = std::max(1u, streams);
    const uint32_t unit = runs.record_size();  // 1 for lines
    const uint64_t block = std::max<uint64_t>(unit, runs.storage().block_bytes / streams / unit * unit);
    const RunCompression compression = runs.compression_for(streams);
    run.segments.resize(streams);
    for (unsigned s = 0; s < streams; ++s) {
      RunSegment& segment = run.segments[s];
      File file = runs.new_segment(stem, segment);
      auto stream = std::make_unique<Stream>();
      stream->writer = std::make_unique<RunWriter>(std::move(file), unit, compression, segment.identity);
      RunWriter* to = stream->writer.get();
      stream->out = make([to, unit](const uint8_t* data, size_t bytes) { to->append(data, bytes / unit); }, block);
      streams_.push_back(std::move(stream));
    }
  }

  size_t size() const { return streams_.size(); }
  Writer& out(size_t s) { return *streams_[s]->out; }
  const RunWriter& run_writer(size_t s) const { return *streams_[s]->writer; }

  // `count` units in order, cut into one contiguous slice per stream (at
  // most one a unit); before(s, first) is told each slice's first unit
  // after the first slice; block(s, from, left) fills stream s's current
  // block (fill_slices_in_turn).
  template <typename Before, typename Block>
  void fill_slices(uint64_t count, Before before, Block block) {
    const size_t n = std::min<size_t>(streams_.size(), std::max<uint64_t>(count, 1));
    std::vector<uint64_t> next(n), end(n);
    for (size_t s = 0; s < n; ++s) {
      next[s] = split_point(count, n, s);
      end[s] = split_point(count, n, s + 1);
      if (s > 0 && next[s] > 0) before(s, next[s]);
    }
    fill_slices_in_turn(next, end, block);
  }

  // Writes what is buffered, then each segment's header, and hands the
  // files, still open, to the run; returns their bytes on disk.
  uint64_t finish() {
    for (auto& s : streams_) s->out->finish();
    uint64_t file_bytes = 0;
    for (size_t i = 0; i < streams_.size(); ++i) {
      file_bytes += close_segment(*streams_[i]->writer, run_.segments[i], runs_);
    }
    return file_bytes;
  }

 private:
  // One segment: its run writer, and the writer of units that feeds it.
  struct Stream {
    std::unique_ptr<RunWriter> writer;
    std::unique_ptr<Writer> out;  // after writer: its write-behind thread stops first
  };

  TempRuns& runs_;
  PendingSource& run_;
  std::vector<std::unique_ptr<Stream>> streams_;
};

}  // namespace gsort
