// Dropping a mapped output's filled stretches behind the writers
// (io/output/drop_behind.h): the bytes stay the file's, read back through
// the mapping and from the file, and the resident pages of the dropped
// stretches leave the mapping.
#include "io/output/drop_behind.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// Pages of [p, p + bytes) that have a page-table entry (/proc/self/pagemap's
// "present" bit; mincore would tell the page cache's pages instead).
uint64_t present_pages(uint8_t* p, uint64_t bytes) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0);
  const uint64_t first = reinterpret_cast<uintptr_t>(p) / page, count = (bytes + page - 1) / page;
  std::vector<uint64_t> entries(count);
  EXPECT_EQ(::pread(fd, entries.data(), count * 8, static_cast<off_t>(first * 8)), static_cast<ssize_t>(count * 8));
  ::close(fd);
  uint64_t n = 0;
  for (uint64_t e : entries) n += e >> 63;
  return n;
}

TEST(DropBehind, DroppedStretchesKeepTheirBytes) {
  TempDir dir;
  const std::string path = dir.file("out");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  constexpr uint64_t kBytes = uint64_t{8} << 20;
  ASSERT_EQ(::ftruncate(fd, kBytes), 0);
  void* map = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* p = static_cast<uint8_t*>(map);
  std::vector<uint8_t> expected(kBytes);
  for (uint64_t i = 0; i < kBytes; ++i) expected[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  for (uint64_t i = 0; i < kBytes; i += 4096) p[i] = 1;  // every page present
  ASSERT_GT(present_pages(p, kBytes), kBytes / 4096 / 2);
  {
    gsort::DropBehind behind;
    // Filled and dropped a stretch at a time, as a window hands them over;
    // stretches not on page boundaries keep their partial pages.
    const uint64_t cuts[] = {0, 1 << 20, (3 << 20) + 100, 6 << 20, kBytes};
    for (size_t k = 0; k + 1 < std::size(cuts); ++k) {
      std::memcpy(p + cuts[k], expected.data() + cuts[k], cuts[k + 1] - cuts[k]);
      behind.drop(p + cuts[k], cuts[k + 1] - cuts[k]);
    }
    behind.wait();
    EXPECT_LE(present_pages(p, kBytes), 2u) << "only the pages astride a cut keep their entries";
  }
  EXPECT_EQ(std::memcmp(p, expected.data(), kBytes), 0);  // faulted back in from the page cache
  ASSERT_EQ(::munmap(map, kBytes), 0);
  std::vector<uint8_t> back(kBytes);
  ASSERT_EQ(::pread(fd, back.data(), kBytes, 0), static_cast<ssize_t>(kBytes));
  EXPECT_EQ(back, expected);
  ::close(fd);
}

}  // namespace
}  // namespace gsort_test
