// io/output/mapped_destination: pages are made present ahead on the pool
// only for a range prepared before the sort reads (an in-memory sort, whose
// reading and sorting leave the pool room); a range mapped when its writer
// starts (a merge) is filled by the writer's threads alone, so that the
// writer never waits on work parked on the pool it needs.
#include "io/output/mapped_destination.h"

#include <gtest/gtest.h>

#include <cstring>

#include "io/file/file.h"
#include "src/core/thread_pool.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

constexpr uint64_t kBytes = 4 << 20, kBlock = 64 << 10;

TEST(MappedDestination, ARangeMappedForItsWriterIsNotPopulatedOnThePool) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("out"), "");
  File file = File::open_update(dir.file("out"));
  MappedDestination mapped(file);
  std::unique_ptr<BlockTarget> blocks = mapped.map(kBytes, kBlock);
  if (!blocks) GTEST_SKIP() << "this file system cannot reserve or map the output";
  EXPECT_FALSE(mapped.populating_ahead());
  std::memset(blocks->buffer(), 'x', blocks->capacity());
  blocks.reset();
  mapped.finish(kBlock, false);
}

TEST(MappedDestination, APreparedRangeIsPopulatedAheadWhileTheSortReads) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("out"), "");
  File file = File::open_update(dir.file("out"));
  ThreadPool pool(2);
  MappedDestination mapped(file);
  if (!mapped.prepare(kBytes, pool)) GTEST_SKIP() << "this file system cannot reserve or map the output";
  EXPECT_TRUE(mapped.populating_ahead());
  mapped.finish(0, false);
}

}  // namespace
}  // namespace gsort
