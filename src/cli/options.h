// The command line, read with Boost.Program_options into a SortConfig.
#pragma once

#include <string>

#include "src/config/sort_config.h"

namespace gsort {

struct ParsedCommand {
  SortConfig config;
  bool done = false;  // --help or --version was printed: exit 0
};

// Throws UsageError on anything malformed.
ParsedCommand parse_command_line(int argc, const char* const* argv);

std::string help_text();

}  // namespace gsort
