#include "src/distributed/partition/content_pieces.h"

#include <algorithm>

#include "src/distributed/partition/input_slice.h"

namespace gsort {

std::vector<std::vector<ContentPiece>> content_pieces(const std::vector<uint64_t>& file_starts, uint32_t record_size,
                                                      int ranks) {
  std::vector<std::vector<ContentPiece>> by_slice(static_cast<size_t>(ranks));
  const uint64_t total = file_starts.back();
  size_t index = 0, file = 0;
  for (int r = 0; r < ranks; ++r) {
    const RecordRange slice = rank_slice(total, r, ranks);
    for (uint64_t at = slice.begin; at < slice.end;) {
      while (file_starts[file + 1] <= at) ++file;  // past the files that end here (empty ones too)
      const uint64_t end = std::min(slice.end, file_starts[file + 1]);
      by_slice[static_cast<size_t>(r)].push_back(
          ContentPiece{index++, file, (at - file_starts[file]) * record_size, (end - at) * record_size});
      at = end;
    }
  }
  return by_slice;
}

std::vector<ContentPiece> pieces_to_hash(const std::vector<std::vector<ContentPiece>>& by_slice,
                                         const InputViews& views, int rank) {
  const int view = views.view_of(rank);
  int members = 0, place = 0;  // the view's ranks, and this rank's place among them
  for (int r = 0; r < views.ranks(); ++r) {
    if (views.view_of(r) != view) continue;
    if (r == rank) place = members;
    ++members;
  }
  std::vector<ContentPiece> mine;
  int outside = 0;  // slices seen so far whose ranks are outside the view
  for (int s = 0; s < views.ranks(); ++s) {
    const bool own = s == rank, foreign = views.view_of(s) != view;
    if (foreign) ++outside;
    if (own || (foreign && (outside - 1) % members == place)) {
      const std::vector<ContentPiece>& pieces = by_slice[static_cast<size_t>(s)];
      mine.insert(mine.end(), pieces.begin(), pieces.end());
    }
  }
  return mine;
}

}  // namespace gsort
