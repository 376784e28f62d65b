// Records that only rank 0 can read as they come (issue 55): standard
// input, a pipe, a compressed file. Rank 0 reads them once; the first ones
// (a share of the least -S of all ranks, at most 64 MiB) give the
// splitters (positions: key, then place, partition/splitters.h), and every
// record then goes, as it comes, to the rank of its range, in input order
// (rank0_stream.h). Each rank's file then holds its range, which it sorts
// as one process would. Nothing waits for the whole input on one host; the
// ranges are as even as the first records are like the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/distributed/local/received_records.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// Collective: what came to this rank, in one file; *total: the records
// rank 0 read, on every rank. A failure on any rank is kept on the fence
// and every rank goes on to the end of the stream; the caller agrees after.
ReceivedRecords stream_records_to_ranks(RankContext& rank, const std::vector<std::string>& inputs, RankStats& stats,
                                        uint64_t* total);

}  // namespace gsort
