// Sorting text lines: the line mode's pipeline, as external_sort is the
// records'. Reads the inputs in chunks of whole lines, sorts each
// (src/chunk_sort/lines/sorter.h), writes the output at once when the
// input fits one chunk (-S), else spills sorted runs and merges them (in
// passes when they are many). -m merges sorted inputs; -c / -C checks one.
#pragma once

#include <functional>
#include <string>

#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/report/sort_report.h"
#include "src/verify/sorted_check.h"

namespace gsort {

struct LineSortOutcome {
  SortReport report;  // records are lines
  CheckResult check;  // -c / -C
  std::string sorter; // what sorted the chunks
};

// Sorts, merges or checks config.inputs as lines (config.lines.enabled)
// into run.output.
// Throws gsort::Error; the destination is left as it was on failure.
// before_commit runs with the report and the sorter's description just
// before the output is put in place.
using LinesBeforeCommit = std::function<void(const SortReport&, const std::string& sorter)>;
LineSortOutcome sort_lines(const SortConfig& config, const RunOptions& run, ThreadPool& pool, const Log& log,
                           const LinesBeforeCommit& before_commit = {});

}  // namespace gsort
