// -m of records across ranks (issue 55), as -m of lines
// (distributed_merge_lines.h): every rank reads every input, cuts each at
// the same splitter records (samples of every input, by key, then input,
// then place; whole keys under -u), checks that its pieces are sorted and
// follow the record before them, and merges them with one process's -m.
// Where any input is not sorted, rank 0 merges the inputs whole, as one
// process, and the others write nothing.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective; records, config.mode is kMerge. Throws RanksFailed on every
// rank when any rank failed.
void distributed_merge_records(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
