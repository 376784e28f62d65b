#include "src/distributed/refusals.h"

#include "src/core/errors.h"

namespace gsort {

void refuse_unsupported_with_ranks(const SortConfig& config) {
  const std::string several = " is not supported with several ranks";
  if (config.compress_output && config.output_parts) {
    throw UsageError("--compress-output with --output-parts" + several + " (compress the parts after, or give -o FILE)");
  }
  if (!config.trace_path.empty()) throw UsageError("--trace" + several + " yet (use --stats: it has every rank's phases)");
}

}  // namespace gsort
