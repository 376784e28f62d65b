#include "src/distributed/refusals.h"

#include "src/core/errors.h"

namespace gsort {

void refuse_unsupported_with_ranks(const SortConfig& config) {
  if (!config.trace_path.empty()) throw UsageError("--trace is not supported with several ranks yet (use --stats: it has every rank's phases)");
}

}  // namespace gsort
