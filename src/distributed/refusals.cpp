#include "src/distributed/refusals.h"

#include "src/core/errors.h"

namespace gsort {

void refuse_unsupported_with_ranks(const SortConfig& config) {
  if (!config.trace_path.empty() && config.mode == Mode::kCheck) {
    throw UsageError("--trace is not supported with -c or -C with several ranks");
  }
}

}  // namespace gsort
