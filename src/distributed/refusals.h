// What the distributed sort does not do (yet): refused with a one-line
// UsageError before any work, by every rank alike.
#pragma once

#include "src/config/sort_config.h"

namespace gsort {

// -c/-C (checking one input is one sequential pass: run it as one
// process), -m (refused for now; sorting the same inputs gives the same
// output), -o - (ranks cannot share standard output), standard input as an
// input, and --compress-output in any format (parts compressed by different
// ranks are not the bytes one process writes).
void refuse_unsupported_with_ranks(const SortConfig& config);

}  // namespace gsort
