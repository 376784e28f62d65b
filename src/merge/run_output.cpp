#include "src/merge/run_output.h"

#include <algorithm>

namespace gsort {

// One segment: its run writer, and the write-behind writer that feeds it.
struct RunOutput::Stream {
  Stream(File file, uint32_t rs, const RunCompression& compression, const RunIdentity& identity,
         uint64_t block_bytes)
      : writer(std::move(file), rs, compression, identity),
        out([this, rs](const uint8_t* data, size_t bytes) { writer.append(data, bytes / rs); }, rs, block_bytes,
            nullptr) {}
  RunWriter writer;
  OutputWriter out;  // after writer: its write-behind thread stops first
};

RunOutput::RunOutput(TempRuns& runs, const char* stem, PendingSource& run, unsigned streams)
    : runs_(runs), run_(run) {
  streams = std::max(1u, streams);
  const uint32_t rs = runs.record_size();
  const RunStorage& storage = runs.storage();
  // The plan's block (its write-behind buffers) is shared by the streams,
  // so that memory stays what the plan counted.
  const uint64_t block = std::max<uint64_t>(rs, storage.block_bytes / streams / rs * rs);
  // The pool's threads are shared too.
  const RunCompression compression = runs.compression_for(streams);
  run.segments.resize(streams);
  for (unsigned s = 0; s < streams; ++s) {
    RunSegment& segment = run.segments[s];
    File file = runs.new_segment(stem, segment);
    streams_.push_back(std::make_unique<Stream>(std::move(file), rs, compression, segment.identity, block));
  }
}

RunOutput::~RunOutput() = default;

OutputWriter& RunOutput::records() { return streams_.front()->out; }

void RunOutput::append_gathered(ThreadPool& pool, const uint8_t* records, const uint32_t* order, uint64_t count) {
  const size_t n = streams_.size();
  std::vector<uint64_t> next(n), end(n);
  for (size_t s = 0; s < n; ++s) {
    next[s] = split_point(count, n, s);
    end[s] = split_point(count, n, s + 1);
  }
  fill_slices_in_turn(next, end, [&](size_t s, uint64_t from, uint64_t left) {
    return streams_[s]->out.append_gathered_block(pool, records, order + from, left);
  });
}

void fill_slices_in_turn(std::vector<uint64_t> next, const std::vector<uint64_t>& end,
                         const std::function<uint64_t(size_t s, uint64_t from, uint64_t left)>& block) {
  for (bool more = true; more;) {
    more = false;
    for (size_t s = 0; s < next.size(); ++s) {
      if (next[s] == end[s]) continue;
      next[s] += block(s, next[s], end[s] - next[s]);
      more |= next[s] < end[s];
    }
  }
}

uint64_t close_segment(RunWriter& writer, RunSegment& segment, TempRuns& runs) {
  writer.finish(true);
  segment.file.file = writer.take_file();
  segment.records = writer.record_count();
  runs.sealed(segment);
  return writer.file_bytes();
}

RunFigures RunOutput::finish() {
  RunFigures figures;
  for (auto& s : streams_) s->out.finish();
  for (size_t i = 0; i < streams_.size(); ++i) {
    RunWriter& writer = streams_[i]->writer;
    figures.file_bytes += close_segment(writer, run_.segments[i], runs_);
    figures.record_bytes += writer.record_count() * writer.record_size();
  }
  return figures;
}

void count_run(const RunFigures& figures, SortReport& report) {
  report.temp_bytes += figures.file_bytes;
  report.temp_record_bytes += figures.record_bytes;
}

}  // namespace gsort
