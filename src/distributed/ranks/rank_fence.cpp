#include "src/distributed/ranks/rank_fence.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gsort {

void RankFence::agree() {
  // Each rank's failure: bit 0 set, bit 1 for a refusal, the rest a hash of
  // its message; 0 for none.
  const uint64_t mine = failed_ ? (std::hash<std::string>{}(message_) << 2) | (refusal_ ? 3 : 1) : 0;
  std::vector<uint64_t> all(static_cast<size_t>(group_.size));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, group_.comm);
  int first = -1, count = 0;
  bool alike = true;
  for (int r = 0; r < group_.size; ++r) {
    const uint64_t h = all[static_cast<size_t>(r)];
    if (h == 0) continue;
    if (first < 0) first = r;
    alike = alike && h == all[static_cast<size_t>(first)];
    ++count;
  }
  if (count == 0) return;
  // Every rank refused the request alike: said once, plainly. Any other
  // failure names the first rank it happened on.
  const bool plain = count == group_.size && alike && (all[static_cast<size_t>(first)] & 2) != 0;
  const std::string line = plain ? message_ : "rank " + std::to_string(first) + ": " + message_;
  throw RanksFailed(line, group_.rank == first);
}

}  // namespace gsort
