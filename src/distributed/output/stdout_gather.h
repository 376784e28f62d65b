// -o - with several ranks (issue 55): the ranks' parts, in rank order, onto
// rank 0's standard output, which mpirun forwards to its own. Rank 0 writes
// its part, then each other rank's as that rank sends it, a chunk at a
// time. Standard output cannot be taken back: a failure while it is
// written leaves what was written, and every rank exits 2.
#pragma once

#include <cstdint>
#include <string>

#include "io/file/file.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective. `part`: this rank's sorted part, whose bytes [skip, skip +
// bytes) are its output; `out`: standard output on rank 0 (null
// elsewhere). A rank that cannot read its part, or rank 0 that cannot
// write, keeps the failure on `fence` and goes on through every step (a
// rank that failed sends an end; what rank 0 gets after its own failure is
// dropped), so that no rank waits alone; the caller agrees after.
void gather_parts_to_stdout(const RankGroup& group, RankFence& fence, const std::string& part, uint64_t skip,
                            uint64_t bytes, File* out);

}  // namespace gsort
