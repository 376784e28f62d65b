// Step 3 of the distributed sort: the ranks trade records so that each
// holds its range of the total order. Every rank takes the same kind of
// exchange: whole slices where the largest fits -S (whole_slice_exchange.h),
// else the slices streamed in rounds into files (shuffle.h); both through
// the data plane --exchange names (exchange_choice.h).
#pragma once

#include "src/distributed/exchange/shuffle.h"
#include "src/distributed/local/received_records.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// Collective; failures end every rank's exchange together (RanksFailed).
// Fills the exchange's fields of `stats`.
ReceivedRecords exchange_records(RankContext& rank, const ShuffleInput& in, RankStats& stats);

}  // namespace gsort
