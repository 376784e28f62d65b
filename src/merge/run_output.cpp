#include "src/merge/run_output.h"

#include <algorithm>

namespace gsort {

RunOutput::RunOutput(TempRuns& runs, const char* stem, PendingSource& run, unsigned streams)
    : streams_(runs, stem, run, streams, [rs = runs.record_size()](WriteBehind::Sink sink, uint64_t block) {
        return std::make_unique<OutputWriter>(std::move(sink), rs, block, nullptr);
      }) {}

RunOutput::~RunOutput() = default;

OutputWriter& RunOutput::records() { return streams_.out(0); }

void RunOutput::append_gathered(ThreadPool& pool, const uint8_t* records, const uint32_t* order, uint64_t count) {
  streams_.fill_slices(
      count, [](size_t, uint64_t) {},
      [&](size_t s, uint64_t from, uint64_t left) {
        return streams_.out(s).append_gathered_block(pool, records, order + from, left);
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
  figures.file_bytes = streams_.finish();
  for (size_t i = 0; i < streams_.size(); ++i) {
    figures.record_bytes += streams_.run_writer(i).record_count() * streams_.run_writer(i).record_size();
    figures.gather_s += streams_.out(i).gather_seconds();
  }
  return figures;
}

void count_run(const RunFigures& figures, SortReport& report) {
  report.temp_bytes += figures.file_bytes;
  report.temp_record_bytes += figures.record_bytes;
}

}  // namespace gsort
