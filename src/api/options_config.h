// The library's Options as a SortConfig: written out as the command line's
// arguments and parsed by the same parser (src/cli/options.h), so that the
// library accepts exactly what gsort does, with the same defaults and the
// same messages.
#pragma once

#include <string>
#include <vector>

#include "gsort/gsort.h"
#include "src/config/sort_config.h"

namespace gsort {

// `inputs` and `output` as on the command line ("-": standard streams).
// Throws UsageError for a malformed option, and for options.arguments that
// would change what the call does (inputs, -o, --merge, --check, --help).
// Without --progress in the arguments the library shows no progress line.
SortConfig config_from_options(const Options& options, Mode mode, const std::vector<std::string>& inputs,
                               const std::string& output);

}  // namespace gsort
