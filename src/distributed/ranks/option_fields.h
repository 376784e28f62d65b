// The shared fields (shared_fields.h) of a rank's request, in the order the
// ranks compare them.
#pragma once

#include <vector>

#include "src/config/sort_config.h"
#include "src/distributed/ranks/input_identity.h"
#include "src/distributed/ranks/shared_fields.h"

namespace gsort {

// gsort's version, then every option that changes the output or a step the
// ranks take together, and the output. What each rank may set for itself
// (-S, -T, --parallel, --backend, --device, ...) is left out: the ranks
// already settle what they must share of those (RankContext).
SharedFields option_fields(const SortConfig& config);

// How many inputs, then each input's name, size, modification time and
// sampled content (input_identity.h).
SharedFields input_fields(const std::vector<InputIdentity>& inputs);

}  // namespace gsort
