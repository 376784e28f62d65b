// The options of spilling: --compress-temp (auto by default; on, off, a
// level), --spill-streams and --page-cache.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "src/cli/options.h"
#include "src/core/errors.h"
#include "tests/support/parse_args.h"

namespace gsort {
namespace {

// Arguments after "--record-size 4".
std::vector<const char*> with_size(std::initializer_list<const char*> args) {
  std::vector<const char*> all = {"--record-size", "4"};
  all.insert(all.end(), args.begin(), args.end());
  return all;
}
SortConfig config(std::initializer_list<const char*> args) { return gsort_test::config_of(with_size(args)); }
std::string usage_error(std::initializer_list<const char*> args) { return gsort_test::usage_error_of(with_size(args)); }

TEST(SpillOptions, CompressTempIsAutoByDefault) {
  const SortConfig c = config({});
  EXPECT_EQ(c.compress_temp, TempCompression::kAuto);
  EXPECT_EQ(c.temp_level, 1);
}

TEST(SpillOptions, CompressTempValues) {
  EXPECT_EQ(config({"--compress-temp=auto"}).compress_temp, TempCompression::kAuto);
  EXPECT_EQ(config({"--compress-temp=off"}).compress_temp, TempCompression::kOff);
  const SortConfig on = config({"--compress-temp=on"});
  EXPECT_EQ(on.compress_temp, TempCompression::kOn);
  EXPECT_EQ(on.temp_level, 1);
  // Bare: on, level 1; it does not take the next argument as its value.
  const SortConfig bare = config({"--compress-temp", "in"});
  EXPECT_EQ(bare.compress_temp, TempCompression::kOn);
  EXPECT_EQ(bare.temp_level, 1);
  EXPECT_EQ(bare.inputs, std::vector<std::string>{"in"});
  const SortConfig level = config({"--compress-temp=5"});
  EXPECT_EQ(level.compress_temp, TempCompression::kOn);
  EXPECT_EQ(level.temp_level, 5);
  EXPECT_EQ(config({"--compress-temp=-3"}).temp_level, -3);
  for (const char* bad : {"--compress-temp=fast", "--compress-temp=", "--compress-temp=1000", "--compress-temp=Auto"}) {
    const std::string e = usage_error({bad});
    EXPECT_NE(e.find("--compress-temp"), std::string::npos) << bad << ": " << e;
  }
  EXPECT_NE(usage_error({"--compress-temp=fast"}).find("auto, on, off"), std::string::npos);
}

TEST(SpillOptions, SpillStreams) {
  EXPECT_EQ(config({}).spill_streams, 0u) << "0: the default";
  EXPECT_EQ(config({"--spill-streams", "1"}).spill_streams, 1u);
  EXPECT_EQ(config({"--spill-streams", "64"}).spill_streams, 64u);
  for (const char* bad : {"0", "-1", "65", "many"}) {
    EXPECT_NE(usage_error({"--spill-streams", bad}).find("spill-streams"), std::string::npos) << bad;
  }
}

TEST(SpillOptions, PageCache) {
  EXPECT_EQ(config({}).page_cache, PageCacheUse::kDrop) << "the default (docs/benchmarks.md, \"Page cache\")";
  EXPECT_EQ(config({"--page-cache", "keep"}).page_cache, PageCacheUse::kKeep);
  EXPECT_EQ(config({"--page-cache", "drop"}).page_cache, PageCacheUse::kDrop);
  EXPECT_NE(usage_error({"--page-cache", "evict"}).find("keep, drop"), std::string::npos);
}

}  // namespace
}  // namespace gsort
