// io/output/output_target + mapped_destination: a range of a file that
// other processes fill too (a rank's part of the one output). It is
// written in place from its offset, mapped or by the stream standing
// there; it never reserves past its end, and the file is never cut back or
// renamed, whether the sort finishes, writes too little, or fails.
#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

constexpr uint64_t kOffset = 8192 + 100;  // not page-aligned
constexpr uint64_t kBytes = 3 * 4096 + 7;

// A file whose bytes before and after the range are other ranks'.
struct SharedFile {
  gsort_test::TempDir dir;
  std::string path = dir.file("out");
  std::string before = std::string(kOffset, 'a');
  std::string after = std::string(5000, 'z');
  ThreadPool pool{2};
  SharedFile() { gsort_test::write_file(path, before + std::string(kBytes, '.') + after); }
  std::string bytes() const { return gsort_test::read_file(path); }
  OutputStaging range() const { return OutputStaging{0, "", OutputRange{kOffset, kBytes}}; }
};

TEST(OutputRange, IsWrittenInPlaceThroughAMappingThatStopsAtItsEnd) {
  SharedFile f;
  OutputTarget target(f.path, "output", false, "shown.txt", f.range());
  EXPECT_TRUE(target.is_range());
  EXPECT_TRUE(target.is_direct());
  EXPECT_TRUE(target.direct_is_mappable());
  EXPECT_EQ(target.direct_offset(), kOffset);
  MappedDestination mapped(target);
  // Asked for more than the range (a bound, each input's terminator
  // counted): only the range is taken.
  if (!mapped.prepare(kBytes + 4096, f.pool)) GTEST_SKIP() << "this file system cannot reserve or map the output";
  uint8_t* p = mapped.map_whole(kBytes);
  ASSERT_NE(p, nullptr);
  std::memset(p, 'r', kBytes);
  mapped.finish(kBytes, false);
  target.commit();
  EXPECT_EQ(f.bytes(), f.before + std::string(kBytes, 'r') + f.after);
}

TEST(OutputRange, WrittenShortIsAnErrorAndNeverCutsTheFile) {
  SharedFile f;
  OutputTarget target(f.path, "output", false, "", f.range());
  MappedDestination mapped(target);
  uint8_t* p = mapped.map_whole(kBytes);
  if (p == nullptr) GTEST_SKIP() << "this file system cannot reserve or map the output";
  std::memset(p, 'r', kBytes - 10);
  EXPECT_THROW(mapped.finish(kBytes - 10, false), Error);
  EXPECT_EQ(f.bytes().size(), kOffset + kBytes + f.after.size());
  EXPECT_EQ(f.bytes().substr(kOffset + kBytes), f.after);
}

TEST(OutputRange, AFailedSortLeavesTheOtherBytesAndTheSize) {
  SharedFile f;
  {
    OutputTarget target(f.path, "output", false, "", f.range());
    MappedDestination mapped(target);
    if (!mapped.prepare(kBytes, f.pool)) GTEST_SKIP() << "this file system cannot reserve or map the output";
    // Goes without finish() or commit(): a sort that threw.
  }
  const std::string now = f.bytes();
  EXPECT_EQ(now.size(), kOffset + kBytes + f.after.size());
  EXPECT_EQ(now.substr(0, kOffset), f.before);
  EXPECT_EQ(now.substr(kOffset + kBytes), f.after);
}

TEST(OutputRange, TheStreamWritesFromItsOffset) {
  SharedFile f;
  OutputTarget target(f.path, "output", false, "", f.range());
  target.file().write_all(std::string(kBytes, 's').data(), kBytes);
  target.commit();
  EXPECT_EQ(f.bytes(), f.before + std::string(kBytes, 's') + f.after);
}

TEST(OutputRange, NeedsARegularFile) {
  gsort_test::TempDir dir;
  EXPECT_THROW(OutputTarget(dir.path(), "output", false, "", OutputStaging{0, "", OutputRange{0, 10}}), Error);
  EXPECT_THROW(OutputTarget(dir.file("missing"), "output", false, "", OutputStaging{0, "", OutputRange{0, 10}}),
               IoError);
}

}  // namespace
}  // namespace gsort
