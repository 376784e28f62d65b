// src/core/piece_thread: a chunk's pieces taken as they arrive, each where
// next_end says, sorted on the piece thread, end to end; a piece cut short
// makes the next start there; an error reaches finish(); a chunk where no
// piece began is left to the caller.
#include "src/core/piece_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace gsort {
namespace {

// Pieces of at least `least` once they have come, and the rest at the end.
PieceThread::NextEnd at_least(uint64_t least) {
  return [least](uint64_t begin, uint64_t available, uint64_t final) -> uint64_t {
    if (final != PieceThread::kUnknown) return begin < final ? final : 0;
    return available - begin >= least ? available : 0;
  };
}

TEST(PieceThread, PiecesEndToEndAsTheyArrive) {
  std::vector<std::pair<uint64_t, uint64_t>> sorted;  // written on the piece thread, read after finish
  PieceThread pieces(at_least(10), [&](uint64_t begin, uint64_t end) {
    sorted.emplace_back(begin, end);
    return end;
  });
  pieces.arrived(4);
  pieces.wait_caught_up();
  EXPECT_EQ(pieces.bounds(), (std::vector<uint64_t>{0}));  // less than a piece
  pieces.arrived(12);
  pieces.wait_caught_up();
  EXPECT_EQ(pieces.bounds(), (std::vector<uint64_t>{0, 12}));
  pieces.arrived(30);
  EXPECT_TRUE(pieces.finish(35));
  EXPECT_EQ(pieces.bounds().front(), 0u);
  EXPECT_EQ(pieces.bounds().back(), 35u);
  for (size_t p = 0; p < sorted.size(); ++p) {
    EXPECT_EQ(sorted[p].first, pieces.bounds()[p]);
    EXPECT_EQ(sorted[p].second, pieces.bounds()[p + 1]);
  }
  EXPECT_EQ(pieces.available(), 35u);
}

TEST(PieceThread, APieceCutShortStartsTheNextWhereItEnded) {
  // Each piece takes at most 7.
  PieceThread pieces(at_least(1), [](uint64_t begin, uint64_t end) { return std::min(end, begin + 7); });
  pieces.arrived(20);
  EXPECT_TRUE(pieces.finish(20));
  EXPECT_EQ(pieces.bounds(), (std::vector<uint64_t>{0, 7, 14, 20}));
}

TEST(PieceThread, TheSortsErrorReachesFinish) {
  PieceThread pieces(at_least(1), [](uint64_t, uint64_t) -> uint64_t { throw std::runtime_error("piece"); });
  pieces.arrived(5);
  EXPECT_THROW(pieces.finish(5), std::runtime_error);
}

TEST(PieceThread, NoPieceBegunIsLeftToTheCaller) {
  std::atomic<int> calls{0};
  PieceThread pieces(at_least(100), [&](uint64_t, uint64_t end) {
    ++calls;
    return end;
  });
  pieces.arrived(50);
  EXPECT_FALSE(pieces.finish(50, true));
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(pieces.bounds(), (std::vector<uint64_t>{0}));
}

TEST(PieceThread, StopsWhileWaiting) {
  PieceThread pieces(at_least(100), [](uint64_t, uint64_t end) { return end; });
  pieces.arrived(1);
  pieces.stop();
  EXPECT_EQ(pieces.bounds(), (std::vector<uint64_t>{0}));
}

}  // namespace
}  // namespace gsort
