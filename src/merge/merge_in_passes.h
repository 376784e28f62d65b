// Merging in passes, for records and lines alike: while more sources wait
// than one merge takes (the fan-in), groups of consecutive sources are
// merged into runs, until at most fan-in are left for the final merge.
// When fewer than twice the fan-in wait, just enough of the first are
// merged into one to leave fan-in, and the rest are not rewritten; else
// every group of fan-in is merged. Only consecutive sources are merged, in
// order, so a stable merge stays stable.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "src/merge/group_merger.h"
#include "src/merge/pending_source.h"

namespace gsort {

// The groups one pass merges, as [begin, end) of `waiting` sources: a group
// of one is left as it is.
std::vector<std::pair<size_t, size_t>> pass_groups(size_t waiting, size_t fan_in);

// Merges `pending` through `merges` (its limits' fan-in, at least 2) in
// passes until at most fan-in are left, which it returns in order.
// before_pass(p) runs before pass p (from 1), after_pass(p, left) after it.
std::vector<PendingSource> merge_in_passes(std::vector<PendingSource> pending, GroupMerger& merges,
                                           const std::function<void(int pass)>& before_pass,
                                           const std::function<void(int pass, size_t left)>& after_pass);

}  // namespace gsort
