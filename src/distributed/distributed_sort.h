// The sort as one of several MPI ranks (mpirun -np N gsort, N > 1): a
// sample sort with bounded memory per rank.
//   1. each rank takes a contiguous slice of the concatenated inputs;
//   2. samples of all slices give N-1 splitters (splitters.h);
//   3. the ranks trade records in rounds (shuffle.h, exchange.h) into one
//      temporary file per source rank;
//   4. each rank sorts what it received with the ordinary external sort;
//   5. -u drops duplicates across rank boundaries (rank_boundaries.h);
//   6. each rank writes its range of the output file at its offset (or its
//      part file with --output-parts); the output appears only when every
//      rank succeeded.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective. Throws RanksFailed on every rank when any rank failed; the
// destination is then as it was and no rank leaves temporary files.
void distributed_sort(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
