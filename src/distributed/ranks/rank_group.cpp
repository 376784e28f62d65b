#include "src/distributed/ranks/rank_group.h"

#include <cstdint>
#include <numeric>

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
  MPI_Allreduce(&g.rank, &g.host, 1, MPI_INT, MPI_MIN, host);
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

std::vector<std::string> gather_to_all(const RankGroup& group, const std::string& s) {
  const int mine = static_cast<int>(s.size());
  std::vector<int> sizes(static_cast<size_t>(group.size)), starts(static_cast<size_t>(group.size));
  MPI_Allgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, group.comm);
  std::exclusive_scan(sizes.begin(), sizes.end(), starts.begin(), 0);
  std::string all(static_cast<size_t>(starts.back() + sizes.back()), '\0');
  MPI_Allgatherv(s.data(), mine, MPI_CHAR, all.data(), sizes.data(), starts.data(), MPI_CHAR, group.comm);
  std::vector<std::string> each;
  for (size_t r = 0; r < sizes.size(); ++r) {
    each.push_back(all.substr(static_cast<size_t>(starts[r]), static_cast<size_t>(sizes[r])));
  }
  return each;
}

}  // namespace gsort
