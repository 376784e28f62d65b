// io/page_cache_room: what the page cache takes at memory speed, from the
// kernel's files: vm.dirty_* ratios or bytes, MemAvailable, and a memory
// cgroup's limit (v1 and v2) less what it holds that is not page cache.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "io/cache/page_cache_room.h"

namespace gsort {
namespace {

constexpr uint64_t kMiB = 1 << 20, kGiB = kMiB << 10;

std::map<std::string, std::string>& files() {
  static std::map<std::string, std::string> f;
  return f;
}

std::string fake(const std::string& path) {
  const auto it = files().find(path);
  return it == files().end() ? "" : it->second;
}

// A host with `available_kib` of MemAvailable, dirty ratios 20 and 10.
void host(uint64_t available_kib, uint64_t dirty_kib = 0) {
  files().clear();
  files()["/proc/meminfo"] = "MemTotal:       24683620 kB\nMemAvailable:   " + std::to_string(available_kib) +
                             " kB\nDirty:   " + std::to_string(dirty_kib) + " kB\nWriteback:  0 kB\n";
  files()["/proc/sys/vm/dirty_ratio"] = "20\n";
  files()["/proc/sys/vm/dirty_background_ratio"] = "10\n";
  files()["/proc/sys/vm/dirty_bytes"] = "0\n";
  files()["/proc/sys/vm/dirty_background_bytes"] = "0\n";
  files()["/proc/self/cgroup"] = "0::/\n";
}

TEST(PageCacheRoom, HalfwayBetweenTheDirtyLimitsOfAvailableMemory) {
  host(100 * 1024 * 1024);  // 100 GiB available
  const PageCacheRoom room = page_cache_room_from(fake);
  EXPECT_FALSE(room.cgroup);
  EXPECT_EQ(room.memory_bytes, 100 * kGiB);
  EXPECT_EQ(room.bytes, 100 * kGiB / 100 * 15);  // (20% + 10%) / 2
  // What is dirty already is taken off.
  host(100 * 1024 * 1024, 1024 * 1024);
  EXPECT_EQ(page_cache_room_from(fake).bytes, 100 * kGiB / 100 * 15 - kGiB);
}

TEST(PageCacheRoom, DirtyBytesOverrideTheRatios) {
  host(100 * 1024 * 1024);
  files()["/proc/sys/vm/dirty_bytes"] = std::to_string(4 * kGiB) + "\n";
  files()["/proc/sys/vm/dirty_background_bytes"] = std::to_string(2 * kGiB) + "\n";
  EXPECT_EQ(page_cache_room_from(fake).bytes, 3 * kGiB);
}

TEST(PageCacheRoom, CgroupV2LimitLessWhatIsNotPageCache) {
  host(100 * 1024 * 1024);
  files()["/proc/self/cgroup"] = "0::/g\n";
  files()["/sys/fs/cgroup/g/memory.max"] = std::to_string(3 * kGiB) + "\n";
  files()["/sys/fs/cgroup/g/memory.current"] = std::to_string(2 * kGiB) + "\n";
  files()["/sys/fs/cgroup/g/memory.stat"] = "anon 1073741824\nfile " + std::to_string(kGiB) + "\nkernel 0\n";
  const PageCacheRoom room = page_cache_room_from(fake);
  EXPECT_TRUE(room.cgroup);
  EXPECT_EQ(room.memory_bytes, 2 * kGiB);  // 3 GiB less 1 GiB that is not page cache
  EXPECT_EQ(room.bytes, 2 * kGiB / 100 * 15);
  // No limit ("max"): the host's memory.
  files()["/sys/fs/cgroup/g/memory.max"] = "max\n";
  EXPECT_FALSE(page_cache_room_from(fake).cgroup);
}

TEST(PageCacheRoom, CgroupV1Limit) {
  host(100 * 1024 * 1024);
  files()["/proc/self/cgroup"] = "4:memory:/job\n3:cpu:/\n";
  files()["/sys/fs/cgroup/memory/job/memory.limit_in_bytes"] = std::to_string(4 * kGiB) + "\n";
  files()["/sys/fs/cgroup/memory/job/memory.usage_in_bytes"] = std::to_string(3 * kGiB) + "\n";
  files()["/sys/fs/cgroup/memory/job/memory.stat"] = "cache " + std::to_string(2 * kGiB) + "\nrss 1\n";
  const PageCacheRoom room = page_cache_room_from(fake);
  EXPECT_TRUE(room.cgroup);
  EXPECT_EQ(room.memory_bytes, 3 * kGiB);
  // v1's "no limit" is a huge number.
  files()["/sys/fs/cgroup/memory/job/memory.limit_in_bytes"] = "9223372036854771712\n";
  EXPECT_FALSE(page_cache_room_from(fake).cgroup);
}

TEST(PageCacheRoom, MissingFilesGiveNoRoom) {
  files().clear();
  EXPECT_EQ(page_cache_room_from(fake).bytes, 0u);
}

}  // namespace
}  // namespace gsort
