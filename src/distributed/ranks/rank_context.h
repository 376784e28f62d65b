// What every phase of one rank's sort works with: its group and the fence
// that keeps the ranks together, the config as this rank runs it
// (config_for_rank), the key layout, the -v log (rank 0 speaks for all)
// and the rank's threads. Each phase takes it, with the RankStats it fills.
// Made collectively: every rank of the group constructs one.
#pragma once

#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/keys/key_layout.h"

namespace gsort {

struct RankContext {
  RankContext(const RankGroup& ranks, const SortConfig& given);
  RankContext(const RankContext&) = delete;
  RankContext& operator=(const RankContext&) = delete;

  const RankGroup& group;
  RankFence fence;
  const SortConfig config;
  const KeyLayout layout;
  const Log log;
  ThreadPool pool;
  // The smallest -S of all ranks: what every decision the ranks must share
  // (whole slices or streamed, the streamed exchange's chunks and rounds)
  // is made from, since ranks may differ in memory, cores and GPUs.
  const uint64_t least_memory_bytes;
};

}  // namespace gsort
