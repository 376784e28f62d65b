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
    EXPECT_TRUE(device_tier_wanted(config, true, 12000 * kMiB, false));
    EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, true)) << "it fits -S: sorted in memory";
    EXPECT_FALSE(device_tier_wanted(config, false, 0, false)) << "a pipe's size is not known";
    EXPECT_FALSE(device_tier_wanted(config, true, 0, false)) << "nothing to sort";
  }
  config.backend = BackendChoice::kCpu;
  EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, false)) << "--backend cpu is unchanged";
  config.backend = BackendChoice::kGpu;
  config.mode = Mode::kMerge;
  EXPECT_FALSE(device_tier_wanted(config, true, 12000 * kMiB, false)) << "-m merges, it does not sort";
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
