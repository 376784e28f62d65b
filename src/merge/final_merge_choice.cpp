#include "src/merge/final_merge_choice.h"

#include "src/core/test_hooks.h"

namespace gsort {

long forced_final_merge_ranges() { return test_hooks::final_merge_ranges ? test_hooks::final_merge_ranges() : 0; }

bool merge_in_batches_because(const Log& log, const std::string& why) {
  if (why.empty()) return false;
  log.info("final merge: in batches, not in ranges (" + why + ")");
  return true;
}

std::string ranges_line_start(size_t ranges, size_t runs, size_t threads, uint64_t buffer_bytes) {
  return "final merge: " + plural(ranges, "range") + " of " + plural(runs, "run") + " on " + plural(threads, "thread") +
         " (read buffers of " + std::to_string(buffer_bytes >> 10) + " KiB)";
}

}  // namespace gsort
