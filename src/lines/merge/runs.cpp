#include "src/lines/merge/runs.h"

#include "src/merge/run_output.h"

#include <algorithm>

namespace gsort {

// One segment: its run writer, and the line writer that feeds it.
struct LineRunOutput::Stream {
  Stream(File file, const RunCompression& compression, const RunIdentity& identity, uint64_t block_bytes,
         uint8_t eol, const LineComparator* unique_by)
      : writer(std::move(file), 1, compression, identity),
        out([this](const uint8_t* data, size_t bytes) { writer.append(data, bytes); }, block_bytes, eol, unique_by) {}
  RunWriter writer;
  LineWriter out;  // after writer: its write-behind thread stops first
};

LineRunOutput::LineRunOutput(TempRuns& runs, PendingSource& run, unsigned streams, uint8_t eol,
                             const LineComparator* unique_by, LineVerify* verify)
    : runs_(runs), run_(run) {
  streams = std::max(1u, streams);
  // The plan's block is shared by the streams, and so are the pool's threads.
  const uint64_t block = runs.storage().block_bytes / streams;
  const RunCompression compression = runs.compression_for(streams);
  run.segments.resize(streams);
  for (unsigned s = 0; s < streams; ++s) {
    RunSegment& segment = run.segments[s];
    File file = runs.new_segment("run", segment);
    streams_.push_back(std::make_unique<Stream>(std::move(file), compression, segment.identity, block, eol, unique_by));
    streams_.back()->out.verify_with(verify, false);
  }
}

LineRunOutput::~LineRunOutput() = default;

LineWriter& LineRunOutput::lines() { return streams_.front()->out; }

void LineRunOutput::append_sorted(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count) {
  const size_t n = std::min<size_t>(streams_.size(), std::max<uint64_t>(count, 1));
  std::vector<uint64_t> next(n), end(n);
  for (size_t s = 0; s < n; ++s) {
    next[s] = split_point(count, n, s);
    end[s] = split_point(count, n, s + 1);
    // -u and --verify compare a slice's first line with the one before it.
    if (s > 0 && next[s] > 0) {
      const uint32_t before = order[next[s] - 1];
      streams_[s]->out.follow(lines.line(before), lines.length(before));
    }
  }
  fill_slices_in_turn(next, end, [&](size_t s, uint64_t from, uint64_t left) {
    return streams_[s]->out.append_sorted_block(pool, lines, order + from, left);
  });
}

LineRunFigures LineRunOutput::finish() {
  LineRunFigures figures;
  for (auto& s : streams_) s->out.finish();
  for (size_t i = 0; i < streams_.size(); ++i) {
    figures.file_bytes += close_segment(streams_[i]->writer, run_.segments[i], runs_);
    figures.lines += streams_[i]->out.lines_written();
    figures.bytes += streams_[i]->out.bytes_written();
  }
  return figures;
}

}  // namespace gsort
