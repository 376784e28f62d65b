// Rank 0's report of a run of ranks over records, for sorts and -m alike:
// every rank's line under -v (ranks/rank_stats.h), --stats and --trace.
#pragma once

#include "src/core/stopwatch.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// Collective: `stats` gets the total; rank 0 reports for all.
void report_record_ranks(const RankContext& rank, DistributedOutput& output, RankStats& stats, const Stopwatch& total);

}  // namespace gsort
