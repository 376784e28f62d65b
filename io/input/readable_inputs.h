// Every named input is checked for reading before any input is read, as
// sort does: `gsort - missing` fails at once, naming `missing`, instead of
// after standard input has been read to its end (and before the output's
// temporary file is made).
#pragma once

#include <string>
#include <vector>

namespace gsort {

// Throws IoError "cannot open NAME: why" for the first input (other than
// "-") that cannot be read: missing, not permitted, or a closed descriptor.
void require_readable_inputs(const std::vector<std::string>& inputs);

}  // namespace gsort
