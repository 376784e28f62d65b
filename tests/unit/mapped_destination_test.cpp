// io/output/mapped_destination: pages are made present ahead on the pool
// only for a range prepared before the sort reads (an in-memory sort, whose
// reading and sorting leave the pool room); a range mapped when its writer
// starts (a merge) is filled by the writer's threads alone, so that the
// writer never waits on work parked on the pool it needs. A stream's range
// grows as the stream is read, and is taken only if the writer asks for
// exactly what grew.
#include "io/output/mapped_destination.h"
#include "io/output/mapped_output_range.h"
#include "io/output/populate_ahead.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "io/file/file.h"
#include "src/core/thread_pool.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

constexpr uint64_t kBytes = 4 << 20, kBlock = 64 << 10;

File open_empty(const gsort_test::TempDir& dir) {
  gsort_test::write_file(dir.file("out"), "");
  return File::open_update(dir.file("out"));
}

// An empty output file, open, and a pool to make its pages present on.
struct OutputFile {
  gsort_test::TempDir dir;
  File file = open_empty(dir);
  ThreadPool pool{2};
  uint64_t size() const { return std::filesystem::file_size(dir.file("out")); }
  std::string bytes() const { return gsort_test::read_file(dir.file("out")); }
};

TEST(MappedDestination, ARangeMappedForItsWriterIsNotPopulatedOnThePool) {
  OutputFile out;
  MappedDestination mapped(out.file);
  std::unique_ptr<BlockTarget> blocks = mapped.map(kBytes, kBlock);
  if (!blocks) GTEST_SKIP() << "this file system cannot reserve or map the output";
  EXPECT_FALSE(mapped.populating_ahead());
  std::memset(blocks->buffer(), 'x', blocks->capacity());
  blocks.reset();
  mapped.finish(kBlock, false);
}

TEST(MappedDestination, APreparedRangeIsPopulatedAheadWhileTheSortReads) {
  OutputFile out;
  MappedDestination mapped(out.file);
  if (!mapped.prepare(kBytes, out.pool)) GTEST_SKIP() << "this file system cannot reserve or map the output";
  EXPECT_TRUE(mapped.populating_ahead());
  mapped.finish(0, false);
}

TEST(MappedDestination, AGrowingRangeIsReservedAsTheStreamArrivesAndTakenWhereItEnds) {
  OutputFile out;
  MappedDestination mapped(out.file);
  if (!mapped.prepare_growing(kBytes, out.pool)) GTEST_SKIP() << "this file system cannot map the output";
  EXPECT_EQ(out.size(), 0u);
  mapped.grow(kBlock + 5);
  EXPECT_EQ(out.size(), kBlock + 5);
  const uint64_t end = 3 * kBlock + 100;
  mapped.grow(end);
  mapped.grow(kBlock);  // never shrinks
  EXPECT_EQ(out.size(), end);
  std::unique_ptr<BlockTarget> blocks = mapped.map(end, kBlock);
  ASSERT_TRUE(blocks);
  EXPECT_TRUE(mapped.populating_ahead());
  std::memset(blocks->buffer(), 'g', blocks->capacity());
  blocks.reset();
  mapped.finish(kBlock, false);
  EXPECT_EQ(out.bytes(), std::string(kBlock, 'g'));
}

TEST(MappedDestination, AGrowingRangeAskedForOtherBytesIsMadeAnew) {
  OutputFile out;
  MappedDestination mapped(out.file);
  if (!mapped.prepare_growing(kBytes, out.pool)) GTEST_SKIP() << "this file system cannot map the output";
  mapped.grow(kBlock);
  uint8_t* whole = mapped.map_whole(2 * kBytes);  // more than the growing range could hold
  if (whole == nullptr) GTEST_SKIP() << "this file system cannot reserve the output";
  EXPECT_EQ(out.size(), 2 * kBytes);
  std::memset(whole, 'w', 2 * kBytes);
  mapped.finish(2 * kBytes, false);
  EXPECT_EQ(out.bytes(), std::string(2 * kBytes, 'w'));
}

TEST(MappedDestination, GrowthGivenUpOrOutgrownCutsTheFileBack) {
  OutputFile out;
  {
    MappedDestination mapped(out.file);
    if (!mapped.prepare_growing(kBytes, out.pool)) GTEST_SKIP() << "this file system cannot map the output";
    mapped.grow(kBytes / 2);
    mapped.abandon_growth();
    EXPECT_FALSE(mapped.mapped());
    EXPECT_EQ(out.size(), 0u);
    mapped.grow(kBytes / 2);  // nothing is growing any more
    EXPECT_EQ(out.size(), 0u);
  }
  MappedDestination mapped(out.file);
  ASSERT_TRUE(mapped.prepare_growing(kBytes, out.pool));
  mapped.grow(kBytes / 2);
  mapped.grow(kBytes + 1);  // past what was mapped: given up
  EXPECT_FALSE(mapped.mapped());
  EXPECT_EQ(out.size(), 0u);
}

bool kernel_populates() {
#ifdef MADV_POPULATE_WRITE
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  void* p = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const bool ok = p != MAP_FAILED && ::madvise(p, page, MADV_POPULATE_WRITE) == 0;
  if (p != MAP_FAILED) ::munmap(p, page);
  return ok;
#else
  return false;
#endif
}

// How many of the pages of [p + from, p + to) are in this process's page
// table (/proc/self/pagemap's present bit): made present, not merely in the
// page cache (where the fault path's read-ahead may put its neighbours).
size_t present_pages(const uint8_t* p, uint64_t from, uint64_t to) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t first = (reinterpret_cast<uintptr_t>(p) + from) / page;
  const uint64_t last = (reinterpret_cast<uintptr_t>(p) + to + page - 1) / page;
  std::vector<uint64_t> entries(last - first);
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0);
  const ssize_t want = static_cast<ssize_t>(entries.size() * sizeof(uint64_t));
  EXPECT_EQ(::pread(fd, entries.data(), static_cast<size_t>(want), static_cast<off_t>(first * sizeof(uint64_t))), want);
  ::close(fd);
  size_t n = 0;
  for (uint64_t e : entries) n += (e >> 63) & 1;
  return n;
}

// What grew is made present, in whole steps, and nothing past it until the
// end is known.
TEST(PopulateAhead, AGrowingRangeIsMadePresentAsItGrowsAndNoFurther) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel cannot make pages present ahead";
  OutputFile out;
  std::unique_ptr<MappedOutputRange> range = MappedOutputRange::map_growing(out.file, 0, kBytes);
  if (!range || !range->grow(kBytes / 2 + 4097)) GTEST_SKIP() << "this file system cannot reserve or map the output";
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t step = uint64_t{2} << 20;  // populate_ahead.cpp's kGrowthAlign
  PopulateAhead ahead(range->data(), kBytes, out.pool, 0, true);
  ahead.extend(kBytes / 2 + 4097);
  ahead.wait_until(step);
  EXPECT_EQ(present_pages(range->data(), 0, step), step / page);
  EXPECT_EQ(present_pages(range->data(), step, kBytes / 2 + 4097), 0u);
  ahead.end_growth(kBytes / 2 + 4097);
  ahead.wait_until(kBytes);
  EXPECT_EQ(present_pages(range->data(), 0, kBytes / 2 + 4097), (kBytes / 2 + 4097 + page - 1) / page);
}

}  // namespace
}  // namespace gsort
