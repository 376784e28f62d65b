// plan_memory (src/pipeline/memory_plan): whatever the budget, record size
// and input size, the plan must be usable (at least one record a chunk, a
// fan-in of at least 2, blocks of whole records, 32-bit record indices) and
// must sort in memory exactly when the input fits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "src/pipeline/memory_plan.h"

namespace gsort {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10, kTiB = kGiB << 10;
constexpr uint64_t kMaxIndexCount = uint64_t{1} << 32;  // record indices are uint32_t

std::string describe(uint64_t budget, uint32_t rs, uint64_t backend, bool known, uint64_t total) {
  return "budget " + std::to_string(budget) + ", record " + std::to_string(rs) + ", backend " +
         std::to_string(backend) + (known ? ", total " + std::to_string(total) : ", size unknown");
}

// The plan's own invariants, for any arguments.
void check_invariants(const MemoryPlan& p, uint64_t budget, uint32_t rs, uint64_t backend, bool known,
                      uint64_t total) {
  SCOPED_TRACE(describe(budget, rs, backend, known, total));
  EXPECT_GE(p.chunk_records, 1u);
  EXPECT_LT(p.chunk_records, kMaxIndexCount) << "chunk indices must fit 32 bits";
  EXPECT_GE(p.fan_in, 2u);
  EXPECT_LE(p.fan_in, 4096u) << "open files must stay bounded";
  EXPECT_GE(p.block_bytes, rs);
  EXPECT_EQ(p.block_bytes % rs, 0u) << "blocks hold whole records";
  EXPECT_GE(p.source_records, 1u);
  if (!known) {
    EXPECT_FALSE(p.in_memory) << "an input of unknown size cannot be planned in memory";
  }
  if (known && total >= kMaxIndexCount) {
    EXPECT_FALSE(p.in_memory) << "over 2^32 records is never one chunk";
  }
  if (p.fan_in > 2) {
    // The merge's read buffers fit the budget.
    const long double need = static_cast<long double>(p.fan_in) * p.source_records * rs;
    EXPECT_LE(need, static_cast<long double>(budget));
  }
  if (p.in_memory) {
    EXPECT_GE(p.chunk_records, total) << "in memory: the whole input is one chunk";
    // What it holds (records, order, backend space) fits the budget.
    const long double need = static_cast<long double>(total) * (rs + 4 + backend);
    EXPECT_LE(need, static_cast<long double>(budget));
  } else if (p.chunk_records > 1) {
    // Spilling: two chunk buffers, two orders (a chunk is sorted while the
    // last one is written) and backend space, beside the write buffers.
    const long double need =
        static_cast<long double>(p.chunk_records) * (2.0L * rs + 8 + backend) + 3.0L * p.block_bytes;
    EXPECT_LE(need, static_cast<long double>(budget));
  }
  EXPECT_EQ(p.spill_streams, 1u) << "one stream unless more are asked for";
}

// What the plan of `streams` spill streams promises: at least one, no more
// than asked, each with a write buffer of kMinStreamBlockBytes (or one
// record) unless there is one; the rest of the plan as with one stream.
void check_streams(uint64_t budget, uint32_t rs, unsigned streams) {
  SCOPED_TRACE("budget " + std::to_string(budget) + ", record " + std::to_string(rs) + ", streams " +
               std::to_string(streams));
  const MemoryPlan one = plan_memory(budget, rs, 28, false, 0);
  const MemoryPlan p = plan_memory(budget, rs, 28, false, 0, streams);
  EXPECT_GE(p.spill_streams, 1u);
  EXPECT_LE(p.spill_streams, std::max(streams, 1u));
  if (p.spill_streams > 1) EXPECT_GE(p.block_bytes / p.spill_streams, std::max<uint64_t>(kMinStreamBlockBytes, rs));
  // The streams share the one block the plan counts: nothing else changes.
  EXPECT_EQ(p.block_bytes, one.block_bytes);
  EXPECT_EQ(p.chunk_records, one.chunk_records);
  EXPECT_EQ(p.fan_in, one.fan_in);
}

TEST(MemoryPlan, SpillStreamsShareTheWriteBuffers) {
  for (uint64_t budget : {uint64_t{1}, 256 * kKiB, kMiB, 4 * kMiB, 64 * kMiB, kGiB, 64 * kGiB}) {
    for (uint32_t rs : {1u, 100u, 100000u, 64u << 20}) {
      for (unsigned streams : {0u, 1u, 2u, 4u, 7u, 64u}) check_streams(budget, rs, streams);
    }
  }
  // Large budgets get every stream asked for; a tiny one gets one.
  EXPECT_EQ(plan_memory(kGiB, 100, 28, false, 0, 8).spill_streams, 8u);
  EXPECT_EQ(plan_memory(4 * kMiB, 100, 28, false, 0, 8).spill_streams, 3u);
  EXPECT_EQ(plan_memory(256 * kKiB, 100, 28, false, 0, 8).spill_streams, 1u);
}

TEST(MemoryPlan, InvariantsOverBudgetsRecordSizesAndCounts) {
  const uint64_t budgets[] = {1, 100, 4 * kKiB, 64 * kKiB, kMiB, 100 * kMiB, kGiB, 64 * kGiB, kTiB};
  const uint32_t sizes[] = {1, 3, 8, 100, 4096, 65536, 1u << 20, 64u << 20};
  const uint64_t backends[] = {0, 28, 100};
  const uint64_t totals[] = {0, 1, 2, 1000, 1000000, (uint64_t{1} << 32) - 1, uint64_t{1} << 32,
                             (uint64_t{1} << 32) + 1, uint64_t{1} << 40};
  for (uint64_t budget : budgets) {
    for (uint32_t rs : sizes) {
      for (uint64_t backend : backends) {
        check_invariants(plan_memory(budget, rs, backend, false, 0), budget, rs, backend, false, 0);
        for (uint64_t total : totals) {
          check_invariants(plan_memory(budget, rs, backend, true, total), budget, rs, backend, true, total);
        }
      }
    }
  }
}

TEST(MemoryPlan, InMemoryWhenItFits) {
  // A small input under a big budget: one chunk, no spilling.
  const MemoryPlan small = plan_memory(kGiB, 100, 28, true, 1000);
  EXPECT_TRUE(small.in_memory);
  EXPECT_EQ(small.chunk_records, 1000u);
  // An empty input is trivially in memory.
  const MemoryPlan empty = plan_memory(kMiB, 100, 28, true, 0);
  EXPECT_TRUE(empty.in_memory);
  EXPECT_GE(empty.chunk_records, 1u);
  // 10 GB of records under a 1 GiB budget: spill.
  const MemoryPlan big = plan_memory(kGiB, 100, 28, true, 100000000);
  EXPECT_FALSE(big.in_memory);
  EXPECT_LT(big.chunk_records, 100000000u);
  // The same size unknown (a pipe): spill even though it would fit.
  EXPECT_FALSE(plan_memory(kGiB, 100, 28, false, 0).in_memory);
}

TEST(MemoryPlan, InMemoryExactlyAtTheThreshold) {
  // Search, for a few shapes, the largest count planned in memory: one more
  // record must not be, and the counts below must all be (monotonic).
  for (uint32_t rs : {1u, 16u, 100u, 4096u}) {
    for (uint64_t budget : {64 * kKiB, 10 * kMiB, kGiB}) {
      const uint64_t backend = 28;
      uint64_t lo = 0, hi = budget;  // in memory at lo; not at hi (a record costs more than a byte)
      ASSERT_TRUE(plan_memory(budget, rs, backend, true, lo).in_memory);
      ASSERT_FALSE(plan_memory(budget, rs, backend, true, hi).in_memory);
      while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        (plan_memory(budget, rs, backend, true, mid).in_memory ? lo : hi) = mid;
      }
      SCOPED_TRACE("record " + std::to_string(rs) + ", budget " + std::to_string(budget) + ", largest " +
                   std::to_string(lo));
      // The threshold is a real share of the budget, not a token amount:
      // at least half of it goes to in-memory records.
      EXPECT_GE(static_cast<long double>(lo) * (rs + 4 + backend), budget / 2.0L);
      for (uint64_t t : {lo / 2, lo - (lo > 0 ? 1 : 0), lo}) {
        EXPECT_TRUE(plan_memory(budget, rs, backend, true, t).in_memory) << t;
      }
      for (uint64_t t : {lo + 1, lo + 2, 2 * lo + 1}) {
        EXPECT_FALSE(plan_memory(budget, rs, backend, true, t).in_memory) << t;
      }
    }
  }
}

TEST(MemoryPlan, CountsAtAndAbove2To32AreNeverInMemory) {
  for (uint64_t total : {uint64_t{1} << 32, (uint64_t{1} << 32) + 1, uint64_t{1} << 33}) {
    const MemoryPlan p = plan_memory(16 * kTiB, 1, 0, true, total);
    EXPECT_FALSE(p.in_memory) << total;
    EXPECT_LT(p.chunk_records, kMaxIndexCount) << total;
  }
  // Just under the limit with room to spare: in memory, indices still fit.
  const MemoryPlan under = plan_memory(16 * kTiB, 1, 0, true, (uint64_t{1} << 32) - 1);
  EXPECT_TRUE(under.in_memory);
  EXPECT_LT(under.chunk_records, kMaxIndexCount);
}

TEST(MemoryPlan, TinyBudgetsStillMakeProgress) {
  for (uint32_t rs : {1u, 100u, 64u << 20}) {
    const MemoryPlan p = plan_memory(1, rs, 28, true, 1000);
    EXPECT_FALSE(p.in_memory) << rs;
    EXPECT_EQ(p.chunk_records, 1u) << rs;
    EXPECT_GE(p.fan_in, 2u) << rs;
    EXPECT_EQ(p.block_bytes % rs, 0u) << rs;
  }
}

TEST(MemoryPlan, LargerBudgetsNeverShrinkTheChunk) {
  for (uint32_t rs : {1u, 100u, 4096u}) {
    uint64_t previous = 0;
    for (uint64_t budget = kKiB; budget <= kTiB; budget *= 2) {
      const MemoryPlan p = plan_memory(budget, rs, 28, false, 0);
      EXPECT_GE(p.chunk_records, previous) << "record " << rs << ", budget " << budget;
      previous = p.chunk_records;
    }
  }
}

}  // namespace
}  // namespace gsort
