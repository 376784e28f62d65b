// --trace FILE: the run's timeline as a Chrome trace (the JSON "trace event"
// format that chrome://tracing and ui.perfetto.dev open): one complete
// event ("ph": "X") per phase span, one track per thread, so that what ran
// at the same time shows side by side.
#pragma once

#include <string>

#include "src/report/sort_report.h"

namespace gsort {

// The trace as JSON text (ending in a newline).
std::string chrome_trace_json(const SortReport& report);

}  // namespace gsort
