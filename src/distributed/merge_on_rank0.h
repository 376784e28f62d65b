// -m of inputs that only rank 0 can read as they come (standard input, a
// pipe, a compressed file) under mpirun (issue 55): rank 0 merges them
// whole, as one process does, into its part; the other ranks' parts are
// empty. The destination is the same as for any run of ranks (one file,
// --output-parts, or -o -), committed once every rank succeeded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "src/distributed/output/distributed_output.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// Collective. `merge` (rank 0 only) writes the merge into the part's path
// and returns its units (records, or bytes of lines).
void merge_on_rank0(RankContext& rank, DistributedOutput& output, RankStats& stats,
                    const std::function<uint64_t(const std::string& part)>& merge);

}  // namespace gsort
