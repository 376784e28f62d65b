// Step 4 of the distributed sort: each rank sorts what it received (in
// files or in one buffer, local_sort.h) into its part, or, into one output
// file without -u, straight into its range of that file: its share is then
// exactly what it received, so its offset is known before it sorts.
#pragma once

#include <cstdint>
#include <memory>

#include "src/distributed/local/received_records.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/output/local_part.h"
#include "src/distributed/output/rank_boundaries.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// A rank's sorted records.
struct SortedPart {
  std::unique_ptr<LocalPart> part;  // null: already in its range of the one output file
  uint64_t records = 0;             // after -u within the part
  PartEnds ends;
};

// Collective (the offsets; failures end every rank's sort together). Fills
// the local sort's fields of `stats`.
SortedPart sort_received_records(RankContext& rank, ReceivedRecords received, const DistributedOutput& output,
                                 RankStats& stats);

}  // namespace gsort
