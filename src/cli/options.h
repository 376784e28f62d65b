// The command line, read with Boost.Program_options into a SortConfig.
#pragma once

#include <string>
#include <vector>

#include "src/config/sort_config.h"

namespace gsort {

struct ParsedCommand {
  SortConfig config;
  bool done = false;  // --help or --version was printed: exit 0
  std::vector<std::string> notes;  // --debug's notes on the options, for standard error
};

// Throws UsageError on anything malformed. ranks_on_host: 0 for one
// process; for a rank of a distributed sort, the ranks on its host, which
// share the defaults of -S (half the memory) and --parallel (all cores):
// each takes its part (at least 64 MiB and one thread), while given values
// apply to each rank.
ParsedCommand parse_command_line(int argc, const char* const* argv, unsigned ranks_on_host = 0);

std::string help_text();

}  // namespace gsort
