// shared_slot_bytes (src/distributed/exchange/shared_memory_exchange.h): the slot of
// the shared-memory exchange holds whole records, shrinks to what a round
// needs and to what /dev/shm has room for, and is refused (0) where even
// the smallest does not fit.
#include <gtest/gtest.h>

#include "src/distributed/exchange/shared_memory_exchange.h"

namespace {

using gsort::shared_slot_bytes;

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kPlenty = 64ull << 30;
constexpr uint64_t kLargeRound = 1ull << 40;

TEST(SharedSlot, HoldsWholeRecordsAndAtMostAQuarterGigabytePerRank) {
  for (int ranks : {2, 3, 8}) {
    const uint64_t slot = shared_slot_bytes(ranks, 100, kLargeRound, kPlenty);
    ASSERT_GT(slot, 0u);
    EXPECT_EQ(slot % 100, 0u);
    EXPECT_LE(slot * 2 * static_cast<uint64_t>(ranks - 1), 256 * kMiB) << ranks;
  }
}

TEST(SharedSlot, ASmallRoundGetsASmallSlot) {
  EXPECT_EQ(shared_slot_bytes(2, 16, 1000, kPlenty), kMiB);
  // Sizes that do not divide a MiB still get a slot (of whole records).
  EXPECT_EQ(shared_slot_bytes(3, 24, 6667, kPlenty), kMiB / 24 * 24);
  EXPECT_EQ(shared_slot_bytes(4, 12, 1, kPlenty), kMiB / 12 * 12);
  EXPECT_EQ(shared_slot_bytes(2, 16, 3 * kMiB / 16, kPlenty), 3 * kMiB);
  EXPECT_GT(shared_slot_bytes(2, 16, kLargeRound, kPlenty), 3 * kMiB);
}

TEST(SharedSlot, EverySegmentFitsInHalfOfWhatIsFree) {
  const uint64_t free_bytes = 100 * kMiB;
  const int ranks = 4;
  const uint64_t slot = shared_slot_bytes(ranks, 24, kLargeRound, free_bytes);
  ASSERT_GT(slot, 0u);
  EXPECT_LE(slot * 2 * (ranks - 1) * ranks, free_bytes / 2);
}

TEST(SharedSlot, TooLittleRoomIsRefused) {
  EXPECT_EQ(shared_slot_bytes(2, 100, kLargeRound, 3 * kMiB), 0u);
  EXPECT_EQ(shared_slot_bytes(8, 100, kLargeRound, 0), 0u);
}

}  // namespace
