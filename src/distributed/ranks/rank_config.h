// The SortConfig a rank works with, from the one every rank parsed alike.
#pragma once

#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Per rank: --device counts from the rank's place on its host (rank k of a
// host takes device D+k, in turn when the host has fewer GPUs than ranks;
// the auto backend falls back to the CPU where that GPU is missing). The
// shares of -S and --parallel were settled by parsing (src/cli/options.h).
SortConfig config_for_rank(SortConfig config, const RankGroup& group);

// What the rank's ordinary external sort of its received records runs
// with: those files in, no progress line, no --stats, no compression or
// fsync of the part (the final output gets those). Where it writes is the
// RunOptions' (local_sort.h).
SortConfig local_sort_config(const SortConfig& rank_config, const std::vector<std::string>& inputs);

// The longest line a rank takes where it reads lines itself (-c, rank 0's
// stream): a quarter of its -S, as one process's sort, and 1 MiB at least.
uint64_t rank_max_line(const SortConfig& rank_config);

// The log of a rank's own sorts: quiet, since rank 0 reports for all ranks.
const Log& local_sort_log();

}  // namespace gsort
