// The final merge of spilled runs of lines on every core, as records have
// it (src/merge/parallel_merge.h): the runs are cut into ranges of whole
// lines (src/merge/line_range_cut.h), and the pool's threads each merge one
// range at a time, of every run, straight into the range's place in the
// mapped output (src/merge/merge_cut_ranges.h, the records' too, with
// src/merge/line_unit.h), from the last range to the first. Runs in the
// temporary directory are freed behind them as they go; runs held in the
// GPU's memory (src/merge/held_runs.h) are read from there. Under -u no key
// spans two ranges, and the ranges are moved together after. An output
// that does not map takes the ranges first to last through slots written
// in order (src/merge/ordered_ranges.h), not under -u.
// It takes runs only (not -m's inputs) and no --verify (whose lines the
// batch merge, src/merge/line_merge.h, counts); elsewhere it declines and
// the batch merge does the work.
#pragma once

#include <vector>

#include "src/lines/line_destination.h"
#include "src/lines/line_merges.h"
#include "src/merge/merge_run.h"
#include "src/merge/pending_source.h"

namespace gsort {

// Merges `files` (runs in the temporary directory) and then `held` (runs
// held in memory, after them in the merge's order) into `out` and counts
// what it wrote into the merges' report; false (nothing written) where it
// declines, saying why under -v.
bool merge_lines_in_ranges(const LineMerges& merges, LineDestination& out, std::vector<PendingSource>& files,
                           const std::vector<const MergeRun*>& held = {});

}  // namespace gsort
