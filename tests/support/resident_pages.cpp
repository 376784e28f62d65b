#include "tests/support/resident_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

namespace gsort_test {

uint64_t resident_pages(const void* p, uint64_t bytes) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((bytes + page - 1) / page);
  EXPECT_EQ(::mincore(const_cast<void*>(p), bytes, vec.data()), 0);
  uint64_t n = 0;
  for (unsigned char v : vec) n += v & 1;
  return n;
}

uint64_t cached_file_pages(int fd, uint64_t offset, uint64_t bytes) {
  void* m = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(offset));
  EXPECT_NE(m, MAP_FAILED);
  if (m == MAP_FAILED) return 0;
  const uint64_t n = resident_pages(m, bytes);
  ::munmap(m, bytes);
  return n;
}

}  // namespace gsort_test
