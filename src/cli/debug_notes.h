// --debug's notes on the command line, GNU sort's key_warnings in the C
// locale, in its words and order: the byte-comparison line, then for each
// key its obsolete spelling, a zero width, leading blanks that count, a
// number spanning fields; then what the number separators do, the global
// options no key takes, and a global -r that only the last resort uses.
#pragma once

#include <string>
#include <vector>

#include "src/cli/option_table.h"
#include "src/keys/line_options.h"

namespace gsort {

// One line each, without the program's name. The options are checked;
// `lines` are the line options made of them (SortConfig::lines).
std::vector<std::string> debug_notes(const RawOptions& o, const LineOptions& lines);

}  // namespace gsort
