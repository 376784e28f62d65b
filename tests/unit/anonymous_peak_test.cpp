// src/report/anonymous_peak: the anonymous memory the process touches shows
// in the sampled peak, and stays there after it is freed.
#include "src/report/anonymous_peak.h"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>

namespace gsort {
namespace {

TEST(AnonymousPeak, SeesMemoryTouchedAndKeepsItsPeak) {
  const uint64_t before = anonymous_bytes_now();
  if (before == 0) GTEST_SKIP() << "no RssAnon in /proc/self/status";
  AnonymousPeak peak;
  constexpr size_t kBytes = size_t{64} << 20;
  void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  std::memset(p, 1, kBytes);
  EXPECT_GE(anonymous_bytes_now(), before + kBytes - (uint64_t{4} << 20));
  const uint64_t touched = peak.bytes();
  EXPECT_GE(touched, before + kBytes - (uint64_t{4} << 20));
  ::munmap(p, kBytes);
  EXPECT_LT(anonymous_bytes_now(), touched);
  EXPECT_GE(peak.bytes(), touched) << "a peak does not fall";
}

}  // namespace
}  // namespace gsort
