#include "src/distributed/ranks/rank_group.h"

#include <cstdint>

namespace gsort {

RankGroup describe_world() {
  RankGroup g;
  g.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(g.comm, &g.rank);
  MPI_Comm_size(g.comm, &g.size);
  MPI_Comm host;
  MPI_Comm_split_type(g.comm, MPI_COMM_TYPE_SHARED, g.rank, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &g.local_rank);
  MPI_Comm_size(host, &g.local_size);
  MPI_Comm_free(&host);
  return g;
}

bool on_every_rank(const RankGroup& group, bool holds) {
  int mine = holds ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, group.comm);
  return all == 1;
}

void broadcast_from_rank0(const RankGroup& group, std::string& s) {
  uint64_t size = s.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, group.comm);
  s.resize(static_cast<size_t>(size));
  MPI_Bcast(s.data(), static_cast<int>(size), MPI_CHAR, 0, group.comm);
}

}  // namespace gsort
