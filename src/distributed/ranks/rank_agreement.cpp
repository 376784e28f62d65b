#include "src/distributed/ranks/rank_agreement.h"

#include <string>

#include "src/core/errors.h"

namespace gsort {

void compare_with_rank0(RankFence& fence, const RankGroup& group, const SharedFields& mine) {
  std::string rank0s = group.rank == 0 ? encode_fields(mine) : std::string();
  broadcast_from_rank0(group, rank0s);
  if (group.rank == 0) return;
  fence.attempt([&] {
    const std::string difference = first_difference(mine, decode_fields(rank0s));
    if (!difference.empty()) throw UsageError(difference);
  });
}

}  // namespace gsort
