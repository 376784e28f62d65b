// The lines' exchange (issue 55): each rank's sorted part, cut by the
// splitters into one piece per rank, traded so that each rank holds the
// pieces of its range from every rank, one file per source rank
// (src/distributed/local/received_files.h), in rounds of bounded size
// through MPI (exchange/mpi_exchange.h, lines as bytes). A rank's own
// piece is copied, not sent.
#pragma once

#include <cstdint>
#include <vector>

#include "src/distributed/exchange/exchange.h"
#include "src/distributed/lines/sorted_line_part.h"
#include "src/distributed/local/received_files.h"
#include "src/distributed/ranks/rank_context.h"

namespace gsort {

// Collective: piece d of `part`, bytes [cuts[d], cuts[d + 1]), goes to rank
// d; what comes here is appended to `received`. A failure to write one is
// kept on the fence (every rank still goes through every round); the
// caller agrees after. Returns what moved.
ExchangeTally exchange_line_pieces(RankContext& rank, const SortedLinePart& part, const std::vector<uint64_t>& cuts,
                                   ReceivedFiles& received);

}  // namespace gsort
