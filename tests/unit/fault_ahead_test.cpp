// FaultAhead: the pages just ahead of what a stream's reader has filled
// become present on its thread, the bytes already there are kept, and
// nothing is faulted in beyond the window.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/core/fault_ahead.h"
#include "tests/support/resident_pages.h"

namespace {

using gsort_test::resident_pages;

// Fresh anonymous memory, without huge pages, so that residency is per 4 KiB page.
struct Mapping {
  explicit Mapping(size_t n) : bytes(n) {
    void* m = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(m, MAP_FAILED);
    p = static_cast<uint8_t*>(m);
#ifdef MADV_NOHUGEPAGE
    (void)::madvise(p, n, MADV_NOHUGEPAGE);
#endif
  }
  ~Mapping() { ::munmap(p, bytes); }
  uint8_t* p;
  size_t bytes;
};

TEST(FaultAhead, FaultsInTheWindowAheadOfTheReaderAndKeepsItsBytes) {
#ifndef MADV_POPULATE_WRITE
  GTEST_SKIP() << "built without MADV_POPULATE_WRITE: FaultAhead does nothing";
#endif
  const size_t window = gsort::FaultAhead::kWindowBytes;
  const size_t total = 2 * window + (64 << 20);
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  Mapping m(total);
  std::memset(m.p, 0x5A, 1 << 20);  // what the reader filled before the window moved
  {
    gsort::FaultAhead ahead(m.p, total);
    ahead.filled(1 << 20);
    if (::madvise(m.p + total - page, page, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
      GTEST_SKIP() << "the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14)";
    }
    (void)::madvise(m.p + total - page, page, MADV_DONTNEED);  // undo the probe
    // The whole window past the filled part comes in.
    ahead.wait_for_window();
    EXPECT_EQ(resident_pages(m.p + (1 << 20), window), window / page) << "the window was not faulted in";
    // The reader moves on: so does the window.
    ahead.filled(window);
    ahead.wait_for_window();
    EXPECT_EQ(resident_pages(m.p + window, window), window / page) << "the window did not move";
  }
  // Stopped: nothing beyond the last window, and the filled bytes unchanged.
  const size_t beyond = 2 * window + (1 << 20);
  EXPECT_EQ(resident_pages(m.p + beyond, total - beyond), 0u) << "faulted in past the window";
  for (size_t i = 0; i < (1 << 20); ++i) ASSERT_EQ(m.p[i], 0x5A) << "byte " << i << " changed";
}

TEST(FaultAhead, StopsAtTheEndOfTheBuffer) {
#ifndef MADV_POPULATE_WRITE
  GTEST_SKIP() << "built without MADV_POPULATE_WRITE: FaultAhead does nothing";
#endif
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  Mapping m(8 << 20);
  if (::madvise(m.p + (4 << 20), page, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
    GTEST_SKIP() << "the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14)";
  }
  (void)::madvise(m.p + (4 << 20), page, MADV_DONTNEED);  // undo the probe
  {
    gsort::FaultAhead ahead(m.p, 4 << 20);  // only the first half is its buffer
    ahead.filled(0);
    ahead.wait_for_window();  // the window is larger than the buffer: all of it
  }
  EXPECT_EQ(resident_pages(m.p, 4 << 20), (4u << 20) / page) << "the buffer was not faulted in";
  EXPECT_EQ(resident_pages(m.p + (4 << 20), 4 << 20), 0u) << "faulted in past the buffer's end";
}

}  // namespace
