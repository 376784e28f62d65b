#include "src/distributed/ranks/rank_fence.h"

#include <vector>

namespace gsort {

void RankFence::agree() {
  const int mine = failed_ ? 1 : 0;
  std::vector<int> all(static_cast<size_t>(group_.size));
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, group_.comm);
  int first = -1, count = 0;
  for (int r = 0; r < group_.size; ++r) {
    if (!all[static_cast<size_t>(r)]) continue;
    if (first < 0) first = r;
    ++count;
  }
  if (count == 0) return;
  // Every rank failed: a refusal or a shared cause; say it once, plainly.
  const std::string line = count == group_.size ? message_ : "rank " + std::to_string(first) + ": " + message_;
  throw RanksFailed(line, group_.rank == first);
}

}  // namespace gsort
