// --debug and --compress-program checked and put into the SortConfig, as
// GNU sort takes them: --debug annotates standard output only, so -o and
// -c/-C with it are refused in sort's words ("options '-o --debug' are
// incompatible"); it is for text lines. --compress-program is refused.
#pragma once

#include "src/cli/option_table.h"
#include "src/config/sort_config.h"

namespace gsort {

// `lines`: the sort is of text lines. Throws UsageError.
void set_gnu_interface(const RawOptions& o, bool lines, SortConfig& c);

}  // namespace gsort
