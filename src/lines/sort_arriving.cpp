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

// A key, or a locale's collation, is read again at every comparison of the
// merge, which the chunk's own sort (images, on the GPU where that pays)
// never does: 2 GB of CSV through a pipe, -t, -k3,3n, in 6 pieces took
// 2.2 s on the H100 host (2026-12-06), the merge 1.18 s of it (15 thread-s).
bool merge_compares_bytes(const LineSpec& spec) { return spec.keys.empty() && !spec.collate_text; }

std::unique_ptr<ArrivingLinePieces> sort_while_arriving(const LineRunFormation& f, const uint8_t* text,
                                                        uint8_t* sorted) {
  const uint64_t forced = forced_piece_bytes();
  if (f.reader.known_bytes() != 0 || !f.plan.double_buffered || !sorted || !f.sorter.reads_any_memory() ||
      (forced == 0 && (f.ctx.pool.size() < kLeastThreads || !merge_compares_bytes(f.ctx.spec())))) {
    return nullptr;
  }
  return std::make_unique<ArrivingLinePieces>(f.sorter, f.ctx.pool, f.ctx.eol(), text, sorted,
                                              forced != 0 ? forced : kLeastPieceBytes, f.plan.chunk_lines,
                                              f.verify != nullptr, forced != 0);
}

bool take_arriving_pieces(const LineRunFormation& f, ArrivingLinePieces& pieces, uint64_t bytes, HostBuffer& sorted,
                          SortReport& report) {
  if (bytes == 0 || !f.reader.done()) {
    pieces.abandon();
    return false;
  }
  const Stopwatch t;
  if (!pieces.finish(bytes) || pieces.figures().longest > f.plan.max_line) return false;
  const ArrivingLinePieces::Figures& p = pieces.figures();
  report.input_records += p.lines;
  report.input_bytes += bytes;
  if (f.verify) f.verify->input(p.lines, p.hash_sum);
  report.add_phase("sort", t.seconds());
  report.add_duration("sort: pieces while the stream arrived", p.sort_s);
  report.add_duration("sort: pieces copied in order", p.copy_s);
  const size_t runs = pieces.bounds().size() - 1;
  f.held.hold_sorted_pieces(std::move(sorted), pieces.bounds());
  f.ctx.log.info("lines: sorted while the stream arrived, in " + plural(runs, "piece") + " (sorting " +
                 seconds_text(p.sort_s) + ", copying in order " + seconds_text(p.copy_s) + "); after its end " +
                 seconds_text(t.seconds()) + ", then merged");
  return true;
}

}  // namespace gsort
