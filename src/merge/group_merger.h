// What merges a group of waiting sources into one run, for the waiting
// runs' stack (run_stack.h): the record merges (merge_passes.h) or the line
// merges (src/lines/line_merges.cpp).
#pragma once

#include <vector>

#include "src/core/log.h"
#include "src/merge/merge_limits.h"
#include "src/merge/pending_source.h"

namespace gsort {

class GroupMerger {
 public:
  virtual const MergeLimits& limits() const = 0;
  virtual const Log& log() const = 0;
  // Merges `group` (consecutive sources, in order) into a new run, one
  // level above the deepest of them; closes and frees their files.
  virtual PendingSource merge_to_run(std::vector<PendingSource> group) = 0;

 protected:
  ~GroupMerger() = default;
};

}  // namespace gsort
