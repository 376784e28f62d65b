// Runs one parsed request (a sort, a merge or a check) with its reporting:
// -v, --stats, --trace. The command line (src/main.cpp) and the library
// (gsort/gsort.h) both come here.
#pragma once

#include <memory>
#include <string>

#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/report/sort_report.h"
#include "src/verify/sorted_check.h"

namespace gsort {

struct PendingStart;  // run_config.cpp

struct RunOutcome {
  SortReport report;     // of a sort or merge
  CheckResult check;     // of a check (Mode::kCheck)
  std::string backend;   // the backend's description at the end (not for a check)
  double seconds = 0;
  // A device start that had not ended when the output was committed (auto
  // sorted a stream on the CPU meanwhile). Dropping it waits for that start
  // to end; the command line exits without waiting (src/core/process_exit.h).
  std::shared_ptr<PendingStart> pending_start;
};

// What one process runs a config into: its -o, or with --output-parts
// DIR/part-00000 (the directory's other parts going with the commit).
RunOptions one_process_run(const SortConfig& config);

// Throws gsort::Error; on any failure the destination (and the --stats and
// --trace files) are left as they were and temp files are removed. Every
// check of the request against the files it names is made here, below the
// command line and the library alike: --stats and --trace may name neither
// an input nor the output; --output-parts' directory is made where missing
// and goes again unless the run succeeds. A check that finds disorder
// returns normally, check.sorted false, and prints nothing about it (the
// caller decides).
RunOutcome run_config(const SortConfig& config, const RunOptions& run);

}  // namespace gsort
