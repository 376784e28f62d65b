// The command line's parser as the option tests call it: arguments after
// "gsort", the SortConfig they make, or the UsageError they raise.
#pragma once

#include <string>
#include <vector>

#include "src/cli/options.h"
#include "src/config/sort_config.h"

namespace gsort_test {

// parse_command_line over "gsort" followed by `args`.
gsort::ParsedCommand parse_args(const std::vector<const char*>& args);
gsort::SortConfig config_of(const std::vector<const char*>& args);
// The UsageError's message, or "" when the arguments were accepted.
std::string usage_error_of(const std::vector<const char*>& args);

}  // namespace gsort_test
