// --trace FILE: the run's timeline as a Chrome trace (the JSON "trace event"
// format that chrome://tracing and ui.perfetto.dev open): one complete
// event ("ph": "X") per phase span, one track per thread, so that what ran
// at the same time shows side by side.
#pragma once

#include <string>
#include <vector>

#include "src/report/sort_report.h"

namespace gsort {

// One process of a trace: its name, and its spans (each on its thread's track).
struct TracedProcess {
  std::string name;
  std::vector<PhaseSpan> spans;
};

// The trace of `processes` (process ids 1, 2, ... in order) as JSON text
// (ending in a newline).
std::string chrome_trace_json(const std::vector<TracedProcess>& processes);
// One process's: "gsort", its report's timeline.
std::string chrome_trace_json(const SortReport& report);

}  // namespace gsort
