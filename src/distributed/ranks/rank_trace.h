// --trace FILE with several ranks (issue 55): rank 0 writes one Chrome
// trace (the format of src/report/trace_file.h) with one process per rank,
// whose main track shows the rank's steps as spans. A rank runs its steps one
// after another, so each span follows the one before it: prepare (what the
// steps leave of the rank's total: the agreement, the inputs, the report),
// splitters, exchange, local sort, write; inside the exchange, its read and
// partition of a whole slice where it had one, and its time in the
// collectives.
#pragma once

#include <string>
#include <vector>

#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// The trace as JSON text (ending in a newline), from every rank's stats in rank order.
std::string ranks_trace_json(const std::vector<RankStats>& all);

}  // namespace gsort
