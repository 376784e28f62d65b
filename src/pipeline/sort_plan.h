// The planning stage: how -S (raised to its floor) is spent on chunks,
// blocks and merge windows, how wide merges may be and how many runs may
// wait (the open-file limit and --batch-size), and whether writes are
// paced. Said under -v.
#pragma once

#include <cstdint>

#include "io/input/input_set.h"
#include "src/merge/merge_limits.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/memory_plan.h"

namespace gsort {

struct SortPlan {
  uint64_t budget = 0;  // -S as used: raised to the least a sort runs under
  MemoryPlan memory;    // its spill streams lowered to what the descriptors allow
  MergeLimits limits;
  MergeWindows windows;
  // The runs and the output handed to the disk as written, and dropped from
  // the page cache once written (--page-cache drop, io/file/writeback_pacer.h).
  bool writeback_paced = false;
};

// output_set_aside: the output's file is set aside while --merge's inputs
// are merged into runs (io/output/output_target.h), its descriptor theirs.
SortPlan plan_sort(const SortContext& ctx, const InputSet& inputs, bool output_set_aside = false);

}  // namespace gsort
