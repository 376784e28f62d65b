#include "src/lines/sort_arriving.h"

#include <string>

#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// A piece is worth a sort of its own from this size on: smaller ones make
// more runs for the merge than the few pool threads they keep busy repay.
constexpr uint64_t kLeastPieceBytes = uint64_t{64} << 20;
// The reader takes a core; the pieces want the rest, and the merge after
// them wants several (src/lines/merge_in_ranges.cpp declines fewer than 4).
constexpr unsigned kLeastThreads = 4;

uint64_t forced_piece_bytes() { return test_hooks::line_piece_bytes ? test_hooks::line_piece_bytes() : 0; }

}  // namespace

std::unique_ptr<ArrivingLinePieces> sort_while_arriving(LineJob& job, const LineReader& reader, LineSorter& sorter,
                                                        const uint8_t* text, uint8_t* sorted) {
  const uint64_t forced = forced_piece_bytes();
  if (reader.known_bytes() != 0 || !job.plan.double_buffered || !sorted || !sorter.reads_any_memory() ||
      (forced == 0 && job.pool.size() < kLeastThreads)) {
    return nullptr;
  }
  return std::make_unique<ArrivingLinePieces>(sorter, job.pool, job.spec.eol, text, sorted,
                                              forced != 0 ? forced : kLeastPieceBytes, job.plan.chunk_lines,
                                              job.verify != nullptr, forced != 0);
}

bool take_arriving_pieces(LineJob& job, const LineReader& reader, ArrivingLinePieces& pieces, uint64_t bytes,
                          HostBuffer& sorted) {
  if (bytes == 0 || !reader.done()) {
    pieces.abandon();
    return false;
  }
  const Stopwatch t;
  if (!pieces.finish(bytes) || pieces.figures().longest > job.plan.max_line) return false;
  const ArrivingLinePieces::Figures& f = pieces.figures();
  job.report.input_records += f.lines;
  job.report.input_bytes += bytes;
  if (job.verify) job.verify->input(f.lines, f.hash_sum);
  job.report.add_phase("sort", t.seconds());
  job.report.add_duration("sort: pieces while the stream arrived", f.sort_s);
  job.report.add_duration("sort: pieces copied in order", f.copy_s);
  const size_t runs = pieces.bounds().size() - 1;
  hold_sorted_pieces(job, std::move(sorted), pieces.bounds());
  job.log.info("lines: sorted while the stream arrived, in " + plural(runs, "piece") + " (sorting " +
               seconds_text(f.sort_s) + ", copying in order " + seconds_text(f.copy_s) + "); after its end " +
               seconds_text(t.seconds()) + ", then merged");
  return true;
}

}  // namespace gsort
