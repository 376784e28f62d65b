// The ranks agree on their shared fields (shared_fields.h) before any
// record moves: each compares its own with rank 0's, and where any rank's
// differ, every rank stops at the next fence with one line from the first
// rank that differs ("rank 1: option --unique differs from rank 0's (on
// against off)"), so that no rank goes on into a collective alone.
#pragma once

#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/distributed/ranks/shared_fields.h"

namespace gsort {

// Collective, never throws: rank 0's fields are broadcast; a rank whose own
// differ fails on `fence` (a refusal, naming the first difference), which
// the next fence.agree() raises on every rank.
void compare_with_rank0(RankFence& fence, const RankGroup& group, const SharedFields& mine);

}  // namespace gsort
