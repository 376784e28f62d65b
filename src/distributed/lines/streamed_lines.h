// Text lines that only rank 0 can read as they come (issue 55): standard
// input, a pipe, a compressed file. Rank 0 reads them once; the first
// lines it reads give the splitters (their order in the sort, ties by
// place in the input; whole keys under -u), and every line then goes, as
// it comes, to the rank of its key range, in input order. Each rank keeps
// what it gets in one file, which it then sorts as one process would: the
// ranks' sorted parts in rank order are one process's output. Nothing
// waits for the whole input on one host; the ranges are as even as the
// first lines are like the rest.
#pragma once

#include <string>
#include <vector>

#include "src/distributed/local/received_files.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/keys/line_compare.h"

namespace gsort {

// Collective. `received` has one file (source 0). A failure on any rank is
// kept on the fence and every rank goes on to the end of the stream; the
// caller agrees after.
void stream_lines_to_ranks(RankContext& rank, const LineComparator& compare, const std::vector<std::string>& inputs,
                           ReceivedFiles& received, RankStats& stats);

}  // namespace gsort
