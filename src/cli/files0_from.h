// --files0-from=F: the inputs are the names in F, each ended by a NUL (the
// last one may end with F), as GNU sort reads them; F "-" is standard
// input. sort's errors, in its words: no input from an empty F, a name of
// "-" (its standard input is taken by F, or ambiguous), an empty name
// (F:N: invalid zero-length file name), and inputs also named as operands.
#pragma once

#include <string>
#include <vector>

namespace gsort {

// The inputs F names. `operands`: the inputs on the command line, which
// must be none. Throws UsageError or IoError.
std::vector<std::string> read_files0_from(const std::string& from, const std::vector<std::string>& operands);

}  // namespace gsort
