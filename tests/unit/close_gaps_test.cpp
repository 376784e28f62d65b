// Closing the gaps between pieces of a buffer (src/algo/close_gaps.h), as
// the parallel merge does under -u: the pieces end up end to end, in
// order, whatever their distances (none, less than a piece, more) and
// whatever scratch memory the threads may take.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/algo/close_gaps.h"
#include "src/core/thread_pool.h"
#include "tests/support/rng.h"

namespace gsort_test {
namespace {

TEST(CloseGaps, PiecesEndUpEndToEndInOrder) {
  gsort::ThreadPool pool(3);
  Rng rng(61);
  for (const uint64_t scratch : {uint64_t{0}, uint64_t{64}, uint64_t{1} << 20}) {
    for (int round = 0; round < 40; ++round) {
      SCOPED_TRACE("scratch " + std::to_string(scratch) + ", round " + std::to_string(round));
      std::vector<gsort::Piece> pieces;
      std::string expected;
      uint64_t at = 0;
      const size_t count = rng.range(1, 8);
      for (size_t p = 0; p < count; ++p) {
        // Gaps of none, a few bytes, or more than the piece.
        const uint64_t gap = round % 3 == 0 ? 0 : rng.below(round % 3 == 1 ? 8 : 5000);
        const uint64_t bytes = rng.below(round % 2 ? 30000 : 50);
        pieces.push_back(gsort::Piece{at + gap, bytes});
        at += gap + bytes;
      }
      std::string buffer = rng.bytes(at);
      for (const gsort::Piece& p : pieces) expected += buffer.substr(p.from, p.bytes);
      const uint64_t end = gsort::close_gaps(pool, reinterpret_cast<uint8_t*>(&buffer[0]), pieces, scratch);
      ASSERT_EQ(end, expected.size());
      EXPECT_TRUE(buffer.substr(0, end) == expected);
    }
  }
}

}  // namespace
}  // namespace gsort_test
