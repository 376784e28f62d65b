// --compress-temp=auto's weighing (src/pipeline/temp_compression.h): runs
// are compressed where writing them compressed and reading them back takes
// less time than doing both plain.
#include <gtest/gtest.h>

#include "src/pipeline/temp_compression.h"

namespace gsort_test {
namespace {

constexpr double kMB = 1e6;

TEST(CompressionPays, AFasterCompressorThanTheDevicePays) {
  EXPECT_TRUE(gsort::compression_pays(3.5, 3300 * kMB, 1770 * kMB));
  EXPECT_TRUE(gsort::compression_pays(2.0, 1000 * kMB, 1000 * kMB));
}

// Slower than the disk's writes, but the runs read back 3.5 times faster:
// the case of a busy 16-thread host in a memory cgroup (issue 36).
TEST(CompressionPays, ASlowerCompressorStillPaysWhereReadingBackSavesMore) {
  EXPECT_TRUE(gsort::compression_pays(3.52, 869 * kMB, 1189 * kMB));
}

TEST(CompressionPays, ACompressorFarSlowerThanTheDeviceDoesNot) {
  EXPECT_FALSE(gsort::compression_pays(3.5, 500 * kMB, 1189 * kMB));
  EXPECT_FALSE(gsort::compression_pays(5.0, 600 * kMB, 100000 * kMB));
}

TEST(CompressionPays, NothingToGainOrNothingKnownDoesNot) {
  EXPECT_FALSE(gsort::compression_pays(1.0, 5000 * kMB, 1000 * kMB));
  EXPECT_FALSE(gsort::compression_pays(3.0, 0, 1000 * kMB));
  EXPECT_FALSE(gsort::compression_pays(3.0, 1000 * kMB, 0));
}

}  // namespace
}  // namespace gsort_test
