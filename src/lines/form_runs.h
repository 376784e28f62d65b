// Forming a sort of lines' runs: the inputs read chunk by chunk and each
// sorted; written straight to the destination when the whole input is one
// chunk (while it is sorted), else spilled as runs on a thread of their own
// while the next chunk is read and sorted (as the records'
// src/pipeline/form_runs.h), into the temporary directory or the store of
// held runs (hold_runs.h).
#pragma once

#include <vector>

#include "io/input/input_set.h"
#include "io/input/line_chunk_reader.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/lines/hold_runs.h"
#include "src/lines/line_context.h"
#include "src/lines/line_destination.h"
#include "src/lines/line_merges.h"
#include "src/lines/plan.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"
#include "src/verify/line_ledger.h"

namespace gsort {

// What forming the runs takes, from the driver (sort_lines.cpp).
struct LineRunFormation {
  const LineContext& ctx;
  const LinePlan& plan;  // plan_line_chunks's
  LineReader& reader;
  LineSorter& sorter;
  LineDestination& out;
  const LineMerges& merges;  // the runs' files, and the early merges (src/merge/run_stack.h)
  HeldLineRuns& held;
  LineVerify* verify;  // --verify's ledger, or null
  ProgressMeter& meter;
  InputTally& tally;  // what the reader has read, for the meter
};

// The chunks' plan, now that the sorter says what a line takes of -S;
// -v says it.
LinePlan plan_line_chunks(const LineContext& ctx, const LineReader& reader, const LineSorter& sorter);

// Sorts the inputs: in memory when they fit one chunk (written to the
// destination), else as runs, returned to be merged (none: the output was
// written, or every run is held). Counts what it read and wrote in `report`.
std::vector<PendingSource> sort_line_chunks(const LineRunFormation& f, SortReport& report);

}  // namespace gsort
