// The ranks of one distributed gsort run: this process's place among them
// and among the ranks on its host (which pick GPUs and share the host's
// cores and memory).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace gsort {

struct RankGroup {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  int local_rank = 0;  // among the ranks on this host (MPI_Comm_split_type SHARED)
  int local_size = 1;
  int host = 0;        // the lowest rank on this host: one number per host
};

// Collective over MPI_COMM_WORLD; MPI must be initialised.
RankGroup describe_world();

// Collective: whether `holds` is true on every rank of the group. Every rank
// learns the same answer, so that none goes on into a collective that
// another has given up on.
bool on_every_rank(const RankGroup& group, bool holds);

// Collective: every rank's `s` becomes rank 0's.
void broadcast_from_rank0(const RankGroup& group, std::string& s);

// Collective: every rank's `s`, in rank order, on every rank.
std::vector<std::string> gather_to_all(const RankGroup& group, const std::string& s);

}  // namespace gsort
