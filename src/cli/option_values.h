// The options' values as given (RawOptions, option_table.h) checked and
// turned into a SortConfig: sizes, choices, levels and keys parsed, the
// host's defaults settled.
#pragma once

#include "src/cli/option_table.h"
#include "src/config/sort_config.h"

namespace gsort {

// Throws UsageError for the first value that is wrong. ranks_on_host: as
// parse_command_line's (options.h).
SortConfig to_config(const RawOptions& o, unsigned ranks_on_host);

}  // namespace gsort
