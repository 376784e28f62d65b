// Runs one parsed request (a sort, a merge or a check) with its reporting:
// -v, --stats, --trace. The command line (src/main.cpp) and the library
// (gsort/gsort.h) both come here.
#pragma once

#include <string>

#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/report/sort_report.h"
#include "src/verify/sorted_check.h"

namespace gsort {

struct RunOutcome {
  SortReport report;     // of a sort or merge
  CheckResult check;     // of a check (Mode::kCheck)
  std::string backend;   // the backend's description at the end (not for a check)
  double seconds = 0;
};

// Throws gsort::Error; on any failure the destination (and the --stats and
// --trace files) are left as they were and temp files are removed. A check
// that finds disorder returns normally, check.sorted false, and prints
// nothing about it (the caller decides).
RunOutcome run_config(const SortConfig& config, const RunOptions& run);

}  // namespace gsort
