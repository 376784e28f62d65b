// The inputs' bytes cut into pieces for the content check
// (content_check.h), and which pieces a rank hashes. A piece is a rank's
// slice, or the part of it in one file where it spans several, so that a
// difference names its input. Every view (ranks/input_views.h) hashes every
// piece once: each rank its own slice, which it reads anyway, and the
// slices of ranks outside its view shared in turn among the view's ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/distributed/ranks/input_views.h"

namespace gsort {

struct ContentPiece {
  size_t index = 0;     // its place among all pieces, in input order
  size_t file = 0;      // the input it lies in
  uint64_t offset = 0;  // where it begins in that file, bytes
  uint64_t bytes = 0;
};

// Every non-empty piece, slice by slice in rank order (rank_slice), each
// slice's in file order. `file_starts`: each file's first global record
// number and one more, the total (ConcatenatedInputs::file_starts).
std::vector<std::vector<ContentPiece>> content_pieces(const std::vector<uint64_t>& file_starts, uint32_t record_size,
                                                      int ranks);

// The pieces `rank` hashes for its view: its own slice's, and of the slices
// whose ranks are outside its view, the j-th to the (j mod k)-th of the
// view's k ranks.
std::vector<ContentPiece> pieces_to_hash(const std::vector<std::vector<ContentPiece>>& by_slice,
                                         const InputViews& views, int rank);

}  // namespace gsort
