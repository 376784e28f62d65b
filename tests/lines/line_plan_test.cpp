// The line sort's memory plan (src/lines/plan.h): what it lays out fits -S.
#include <gtest/gtest.h>

#include <cstdint>

#include "io/output/write_behind.h"
#include "src/lines/plan.h"

namespace gsort {
namespace {

constexpr uint64_t kSorterBytesPerLine = 16;  // a 16-byte entry a line, as the CPU sorter's

LinePlan plan_of(uint64_t budget, uint64_t known_bytes) {
  return plan_lines(budget, kSorterBytesPerLine, known_bytes, 1, 0, 1000, 0);
}

TEST(LinePlan, TwoChunksTheirIndexesAndAHeldRunsLargerBuffersFitTheBudget) {
  for (uint64_t budget = uint64_t{1} << 20; budget <= uint64_t{64} << 30; budget *= 2) {
    const LinePlan p = plan_of(budget, 0);  // a stream: two chunk buffers
    ASSERT_TRUE(p.double_buffered);
    const uint64_t per_line = 2 * (sizeof(uint64_t) + sizeof(uint32_t)) + kSorterBytesPerLine;
    // The writers' blocks, as large as before held runs had blocks of their
    // own, are left to the budget's slack; what a held run's take beyond
    // them is not.
    const uint64_t held_growth = kWriteBehindBuffers * (p.held_block_bytes - p.block_bytes);
    const uint64_t laid_out = 2 * p.chunk_bytes + p.chunk_lines * per_line + held_growth;
    EXPECT_LE(laid_out, budget + 4) << budget;  // the chunks' two spare bytes
    EXPECT_GE(p.held_block_bytes, p.block_bytes) << budget;
    EXPECT_LE(p.held_block_bytes, uint64_t{64} << 20) << budget;
  }
}

TEST(LinePlan, AHeldRunsBuffersAreLargerThanTheWritersWhereTheBudgetAllows) {
  const LinePlan p = plan_of(uint64_t{2} << 30, uint64_t{12} << 30);
  EXPECT_EQ(p.block_bytes, uint64_t{8} << 20);
  EXPECT_EQ(p.held_block_bytes, uint64_t{64} << 20);
}

TEST(LinePlan, ASmallBudgetsChunkHoldsAsManyLinesAsBefore) {
  const LinePlan p = plan_of(uint64_t{1} << 20, 0);
  const uint64_t per_line = 2 * (sizeof(uint64_t) + sizeof(uint32_t)) + kSorterBytesPerLine;
  EXPECT_EQ(p.held_block_bytes, p.block_bytes);
  EXPECT_EQ(p.chunk_lines, (uint64_t{1} << 19) / per_line);
}

TEST(LinePlan, OneChunkLeavesNoRoomForRunsBuffers) {
  const uint64_t budget = uint64_t{1} << 30;
  const LinePlan one = plan_of(budget, budget / 4);
  ASSERT_FALSE(one.double_buffered);
  const uint64_t per_line = sizeof(uint64_t) + sizeof(uint32_t) + kSorterBytesPerLine;
  EXPECT_EQ(one.chunk_lines, budget / 2 / per_line);
}

}  // namespace
}  // namespace gsort
