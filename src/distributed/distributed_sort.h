// The sort as one of several MPI ranks (mpirun -np N gsort, N > 1): a
// sample sort with bounded memory per rank. Its phases, each in its room:
//   1. the ranks agree on the request: the options they must share, the
//      output, and each input's name, size, time and sampled content; a
//      difference stops every rank, naming it (ranks/rank_agreement.h);
//      then each rank takes a contiguous slice of the concatenated inputs
//      (partition/input_slice.h);
//   2. samples of all slices give N-1 splitters (partition/splitters.h);
//   3. the ranks trade records so that each holds its range of the total
//      order, in memory or in files (exchange/exchange_phase.h);
//   4. each rank sorts what it received with the ordinary sort
//      (local/local_sort_phase.h);
//   5. -u drops duplicates across rank boundaries
//      (output/rank_boundaries.h);
//   6. where ranks may read different bytes under one name (other hosts,
//      other files), the inputs' whole content, hashed beside steps 2 to 5,
//      is compared; a difference stops every rank
//      (partition/content_check.h);
//   7. each rank writes its range of the output file at its offset (or its
//      part file with --output-parts); the output appears only when every
//      rank succeeded (output/distributed_output.h);
//   8. rank 0 reports for all (ranks/rank_stats.h).
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective. Throws RanksFailed on every rank when any rank failed; the
// destination is then as it was and no rank leaves temporary files.
void distributed_sort(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
