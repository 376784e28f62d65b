// Files gsort writes besides the output (--stats, --trace) must never be one of the
// inputs or the output: writing them would destroy data. Compared by device
// and inode, through links, before anything is read or created.
#pragma once

#include <string>

#include "src/config/sort_config.h"

namespace gsort {

// Throws UsageError "--stats file F is also an input" (or "... the output",
// the file written: RunOptions::output; likewise for --trace, which may not
// be the --stats file either).
void refuse_overlapping_files(const SortConfig& config, const std::string& output);

}  // namespace gsort
