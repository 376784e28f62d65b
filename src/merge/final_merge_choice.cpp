#include "src/merge/final_merge_choice.h"

#include "src/core/test_hooks.h"

namespace gsort {

long forced_final_merge_ranges() { return test_hooks::final_merge_ranges ? test_hooks::final_merge_ranges() : 0; }

bool merge_in_batches_because(const Log& log, const std::string& why) {
  if (why.empty()) return false;
  log.info("final merge: in batches, not in ranges (" + why + ")");
  return true;
}

}  // namespace gsort
