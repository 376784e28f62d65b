// -m of text lines across ranks (issue 55): inputs already sorted, merged
// by key range. Every rank reads every input (plain files, agreed as for a
// sort); samples of every input give N-1 splitter lines, ordered by key,
// then input, then place (whole keys under -u), the same on every rank, so
// no rank needs another's; each rank cuts every input there, checks that
// its pieces are sorted, and merges them, in input order, with one
// process's -m into its part of the output. Where any input is not sorted
// (one process's -m then writes no sorted output, but a particular one),
// rank 0 merges the whole inputs alone, as one process, and the others
// write nothing: the output is one process's either way.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective; config.lines.enabled and config.mode is kMerge. Throws
// RanksFailed on every rank when any rank failed.
void distributed_merge_lines(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
