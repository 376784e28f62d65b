// run_config's line mode (config.lines.enabled): the line sort
// (src/lines/sort_lines.h) with -v, --stats and --trace.
#pragma once

#include "src/api/run_config.h"

namespace gsort {

RunOutcome run_lines_config(const SortConfig& config, const RunOptions& run);

}  // namespace gsort
