// Step 4 of the distributed sort: a rank's ordinary external sort (its own
// backend: its GPU, or the CPU) of the records it received.
#pragma once

#include <string>
#include <vector>

#include "src/config/sort_config.h"
#include "src/keys/key_layout.h"
#include "src/report/sort_report.h"

namespace gsort {

// Sorts `received` (read in the order given) into `part`, with -u applied
// within the part. rank_config: config_for_rank's.
SortReport sort_received(const SortConfig& rank_config, const KeyLayout& layout,
                         const std::vector<std::string>& received, const std::string& part);

}  // namespace gsort
