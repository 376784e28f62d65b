// Where a stream's first chunk of lines is sorted in pieces while it
// arrives (arriving_pieces.h), and what the sort takes from them when it
// ends within that chunk: the pieces, sorted in place, as held runs
// (hold_runs.h) for the final merge in ranges.
#pragma once

#include <cstdint>
#include <memory>

#include "src/core/host_buffer.h"
#include "src/lines/arriving_pieces.h"
#include "src/lines/form_runs.h"

namespace gsort {

// Whether the final merge of sorted pieces compares the spec's lines by
// their bytes alone (whole lines, in C): only then do pieces pay.
bool merge_compares_bytes(const LineSpec& spec);

// The pieces' sorter over the chunk `text`, copying into `sorted` (as
// large), for a stream (an input of unknown size) of whole lines in C
// (merge_compares_bytes) on 4 threads or more, with a sorter that reads
// any memory; null otherwise. The test hook that sets the pieces' size
// takes them for any spec and pool.
std::unique_ptr<ArrivingLinePieces> sort_while_arriving(const LineRunFormation& f, const uint8_t* text,
                                                        uint8_t* sorted);

// After the first chunk was read (`bytes`): where the stream ended in it
// and the pieces sorted it all, they become the held runs (taking
// `sorted`, the buffer they were copied into), the input is counted in
// `report`, and true is returned; the final merge writes the output. False
// otherwise: the chunk is sorted as any other (a line too long for -S is
// found there).
bool take_arriving_pieces(const LineRunFormation& f, ArrivingLinePieces& pieces, uint64_t bytes, HostBuffer& sorted,
                          SortReport& report);

}  // namespace gsort
