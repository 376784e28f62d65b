// The final merge of spilled runs of lines in ranges (parallel.h): cuts
// every run (its bytes, src/merge/merge_run.h) at line starts such
// that range p holds bytes [cuts[p][r], cuts[p+1][r]) of run r, and every
// line of range p sorts before every line of range p+1 in the merge's
// total order: by the comparison, then run number, then place in the run.
// That is the sequential merge's order, so ranges merged on their own and
// laid end to end give its bytes; a range's output starts at the sum of
// its cuts.
//
// The splitters (src/merge/range_cuts.h, as the records') are lines found
// at evenly spaced byte offsets of each run (the first line starting there
// or after), sorted, taken at even shares of the bytes they stand for;
// each run's cut for a splitter is the first line that does not sort
// before it, by binary search over byte offsets.
// The bytes read here are not checked: the merge's cursors check every
// block they read, and together they read every block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/run/run_view.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/merge/merge_run.h"
#include "src/merge/range_cuts.h"

namespace gsort {

// `ranges` wanted (fewer where splitters coincide); no range is empty.
// whole_keys (-u, whose comparison is the keys'): no two lines of equal
// keys in two ranges.
MergeRanges cut_line_runs(const std::vector<const MergeRun*>& runs, const LineComparator& compare, uint8_t eol,
                          size_t ranges, ThreadPool& pool, bool whole_keys = false);

// The first line of `run` that starts at byte `from` or after: its start
// (run->size() where none does), and its bytes without the terminator in
// `line`; `cache` as RunView::read_span's.
uint64_t line_at_or_after(const MergeRun& run, uint64_t from, uint8_t eol, std::vector<uint8_t>& line,
                          RunView::FrameCache* cache);

}  // namespace gsort
