// -c and -C with several ranks (issue 55): each rank checks its slice of
// the input (records, or lines cut at line starts: lines/line_slice.h) on
// its own, the ranks compare each slice's first unit with the last of the
// slice before it, and the first disorder in input order is the answer,
// the same on every rank and the same as one process finds: its number
// counted from the input's start, its offset and the units on either side.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/verify/sorted_check.h"

namespace gsort {

// Collective; config.mode is kCheck. Throws RanksFailed on every rank when
// any rank failed.
CheckResult distributed_check(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
