// WritebackPacer through File::pace_writeback: a file written in order keeps
// every byte, what lies a window behind the writer has left the page cache
// (it was written back, then dropped), and a pipe is left alone.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "io/file/file.h"
#include "tests/support/resident_pages.h"
#include "tests/support/temp_dir.h"

namespace {

// A pattern that differs from block to block, so that a lost or misplaced
// block shows.
void fill(std::vector<uint8_t>& block, uint64_t index) {
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<uint8_t>((index * 131 + i * 7) >> 3);
}

TEST(WritebackPacer, WritesEveryByteAndDropsWhatIsAWindowBehind) {
  gsort_test::TempDir dir;
  const std::string path = dir.file("paced.bin");
  struct statfs fs;
  ASSERT_EQ(::statfs(dir.path().c_str(), &fs), 0);
  if (fs.f_type == TMPFS_MAGIC) GTEST_SKIP() << "the temp directory is tmpfs: its pages have no disk to go to";

  const uint64_t step = gsort::WritebackPacer::kStepBytes;
  const uint64_t total = (gsort::WritebackPacer::kWindowSteps + 4) * step;
  std::vector<uint8_t> block(3 << 20);  // not a divisor of a step: writes straddle steps
  {
    gsort::File f = gsort::File::create(path);
    f.pace_writeback();
    EXPECT_TRUE(f.writeback_paced());
    for (uint64_t at = 0, i = 0; at < total; at += block.size(), ++i) {
      fill(block, i);
      f.write_all(block.data(), block.size());
    }
    // The first steps are more than a window behind the end: written back and dropped.
    const uint64_t behind = 3 * step;
    const int look = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // the writer's descriptor cannot be mapped
    ASSERT_GE(look, 0);
    EXPECT_LT(gsort_test::cached_file_pages(look, 0, behind), behind / 4096 / 10) << "pages a window behind the writer stayed cached";
    ::close(look);
    f.close();
  }
  gsort::File back = gsort::File::open_read(path);
  std::vector<uint8_t> got(block.size()), want(block.size());
  uint64_t i = 0;
  for (uint64_t at = 0; at < total; at += block.size(), ++i) {
    fill(want, i);
    ASSERT_EQ(back.read_full(got.data(), got.size()), got.size()) << "short at " << at;
    ASSERT_EQ(got, want) << "block " << i << " differs";
  }
  EXPECT_EQ(back.read_full(got.data(), 1), 0u) << "the file is longer than what was written";
}

TEST(WritebackPacer, APipeIsNotPaced) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  gsort::File writer(fds[1], "pipe", true);
  writer.pace_writeback();
  EXPECT_FALSE(writer.writeback_paced());
  const char text[] = "records";
  writer.write_all(text, sizeof text);
  char got[sizeof text] = {};
  ASSERT_EQ(::read(fds[0], got, sizeof got), static_cast<ssize_t>(sizeof got));
  EXPECT_STREQ(got, text);
  ::close(fds[0]);
}

}  // namespace
