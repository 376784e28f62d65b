#include "src/merge/line_run_output.h"

#include <memory>

namespace gsort {

LineRunOutput::LineRunOutput(TempRuns& runs, PendingSource& run, unsigned streams, uint8_t eol,
                             const LineComparator* unique_by, LineVerify* verify)
    : streams_(runs, "run", run, streams, [eol, unique_by, verify](WriteBehind::Sink sink, uint64_t block) {
        auto out = std::make_unique<LineWriter>(std::move(sink), block, eol, unique_by);
        out->verify_with(verify, false);
        return out;
      }) {}

LineRunOutput::~LineRunOutput() = default;

LineWriter& LineRunOutput::lines() { return streams_.out(0); }

void LineRunOutput::append_sorted(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count) {
  // -u and --verify compare a slice's first line with the one before it.
  streams_.fill_slices(
      count,
      [&](size_t s, uint64_t first) {
        const uint32_t before = order[first - 1];
        streams_.out(s).follow(lines.line(before), lines.length(before));
      },
      [&](size_t s, uint64_t from, uint64_t left) {
        return streams_.out(s).append_sorted_block(pool, lines, order + from, left);
      });
}

LineRunFigures LineRunOutput::finish() {
  LineRunFigures figures;
  figures.file_bytes = streams_.finish();
  for (size_t i = 0; i < streams_.size(); ++i) {
    figures.lines += streams_.out(i).lines_written();
    figures.bytes += streams_.out(i).bytes_written();
  }
  return figures;
}

}  // namespace gsort
