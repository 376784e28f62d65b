// A rank's slice of the inputs as text lines (line_slice.h) sent to the
// ranks of their key ranges before anything is sorted (issue 55), as the
// records' ranks do: samples at even places of every slice give all ranks
// the same splitters (line_router.h); then each rank reads its slice once,
// in windows, routes each window's lines on the pool's threads into one
// bucket per rank, and trades the buckets through MPI, one round per
// window, into `received` (one file per source rank). Read in rank order,
// those hold a rank's range in input order, so one process's sort of them
// is one process's output for that range: nothing is sorted twice, and the
// slice is never copied whole before it is sorted.
#pragma once

#include <cstdint>
#include <vector>

#include "src/distributed/exchange/exchange.h"
#include "src/distributed/lines/line_router.h"
#include "src/distributed/lines/sorted_line_part.h"
#include "src/distributed/local/received_files.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/rank_context.h"

namespace gsort {

// Rank `rank`'s samples of its `slice` of `inputs`: its share of `wanted`
// for all ranks' `total` bytes, lines at evenly spaced places, each with
// its place in the inputs end to end and the bytes it stands for.
std::vector<LineSample> slice_samples(const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol,
                                      int rank, uint64_t total, uint64_t wanted);

// Collective: every line of `slice` (a terminator added to an input's
// unterminated last line, as one process reads it) goes to the rank
// `router` gives it; what comes here is appended to `received`. marked
// (line_marks.h' ranks_sent_marks): the ranks this one sends marks to and
// takes marks from, copying the lines marked for it from the input. A failure
// here is kept on the fence (this rank still takes part in every round);
// the caller agrees after. Returns what moved; *routed: the slice's bytes.
ExchangeTally route_slice(RankContext& rank, const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol,
                          const LineRouter& router, const std::vector<bool>& marked, ReceivedFiles& received,
                          uint64_t* routed);

}  // namespace gsort
