// When a sort asks the backend to hold its whole input on the device
// (src/pipeline/sort_on_device.h), and the host slots it moves through.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/pipeline/sort_on_device.h"

namespace gsort {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(DeviceTier, AskedOnlyForASpilledSortOfKnownSizeOnABackendThatMayHaveADevice) {
  SortConfig config;
  for (BackendChoice b : {BackendChoice::kAuto, BackendChoice::kGpu, BackendChoice::kHybrid}) {
    config.backend = b;
    EXPECT_TRUE(device_tier_wanted(config, true, 12000 * kMiB, false, 100));
    EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, true, 100)) << "it fits -S: sorted in memory";
    EXPECT_FALSE(device_tier_wanted(config, false, 0, false, 100)) << "a pipe's size is not known";
    EXPECT_FALSE(device_tier_wanted(config, true, 0, false, 100)) << "nothing to sort";
  }
  config.backend = BackendChoice::kCpu;
  EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, false, 100)) << "--backend cpu is unchanged";
  config.backend = BackendChoice::kGpu;
  config.mode = Mode::kMerge;
  EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, false, 100)) << "-m merges, it does not sort";
}

TEST(DeviceTier, SmallRecordsThatFitTheHostAreSortedWholeOnTheDevice) {
  SortConfig config;
  for (BackendChoice b : {BackendChoice::kAuto, BackendChoice::kGpu}) {
    config.backend = b;
    EXPECT_TRUE(device_tier_wanted(config, true, 8000 * kMiB, true, 16)) << "16-byte records: no host gather";
    EXPECT_TRUE(device_tier_wanted(config, true, 8000 * kMiB, true, kSmallRecordBytes));
    EXPECT_FALSE(device_tier_wanted(config, true, 8000 * kMiB, true, kSmallRecordBytes + 1))
        << "larger records are gathered on the host";
    EXPECT_FALSE(device_tier_wanted(config, false, 0, true, 16)) << "a pipe's size is not known";
  }
  config.backend = BackendChoice::kHybrid;
  EXPECT_FALSE(device_tier_wanted(config, true, 8000 * kMiB, true, 16)) << "hybrid shares the sort with the host";
  config.backend = BackendChoice::kCpu;
  EXPECT_FALSE(device_tier_wanted(config, true, 8000 * kMiB, true, 16));
}

TEST(DeviceTier, SlotsAreAQuarterOfTheBudgetUpTo256MiB) {
  EXPECT_EQ(device_tier_slot_bytes(2048 * kMiB), 256 * kMiB);
  EXPECT_EQ(device_tier_slot_bytes(512 * kMiB), 128 * kMiB);
  EXPECT_EQ(device_tier_slot_bytes(4 * kMiB), kMiB);
  EXPECT_EQ(device_tier_slot_bytes(0), 1u);
  // Two slots stay within the budget.
  for (uint64_t budget : {uint64_t{3}, 100 * kMiB, 1000 * kMiB, 64000 * kMiB}) {
    EXPECT_LE(2 * device_tier_slot_bytes(budget), std::max<uint64_t>(budget, 2));
  }
}

}  // namespace
}  // namespace gsort
