// File::write_around_cache (io/file/direct_writer.h): whatever the sizes of
// the appends and of the staging buffer, the file holds exactly the bytes
// appended, its size is theirs (the padded last block cut back) and its
// offset is at their end; a file whose offset is not block-aligned keeps
// its ordinary writes, and so does one on a file system without O_DIRECT.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace {

TEST(DirectWriter, KeepsEveryByteForAnySizes) {
  gsort_test::TempDir dir;
  if (gsort_test::on_tmpfs(dir.path())) GTEST_SKIP() << "the temp directory is tmpfs, which takes no direct writes";
  gsort_test::Rng rng(91);
  const std::vector<size_t> totals = {0, 1, 4095, 4096, 4097, 3 * 4096 + 100, (5 << 20) + 123};
  for (const size_t staging : {size_t{4096}, size_t{1} << 20, size_t{3} << 20}) {
    for (const size_t total : totals) {
      SCOPED_TRACE("staging " + std::to_string(staging) + ", total " + std::to_string(total));
      const std::string data = rng.bytes(total);
      const std::string path = dir.file("out.bin");
      gsort::File f = gsort::File::create(path);
      ASSERT_TRUE(f.write_around_cache(staging));
      EXPECT_TRUE(f.writes_around_cache());
      for (size_t at = 0; at < total;) {  // appends of odd sizes, some larger than the staging
        const size_t n = std::min<size_t>(total - at, rng.range(1, 3 * staging / 2 + 7));
        f.write_all(data.data() + at, n);
        at += n;
      }
      f.finish_writes();
      EXPECT_EQ(f.size(), total);
      EXPECT_EQ(f.position(), total) << "the offset stands at the end, as after write()";
      f.write_all("tail", 4);  // ordinary writes go on from there
      f.close();
      EXPECT_TRUE(gsort_test::read_file(path) == data + "tail");
    }
  }
}

TEST(DirectWriter, AnUnalignedOffsetKeepsOrdinaryWrites) {
  gsort_test::TempDir dir;
  if (!gsort_test::on_tmpfs(dir.path())) {
    gsort::File f = gsort::File::create(dir.file("unaligned.bin"));
    f.write_all("abc", 3);
    EXPECT_FALSE(f.write_around_cache(1 << 20));
    f.write_all("def", 3);
    f.close();
    EXPECT_EQ(gsort_test::read_file(dir.file("unaligned.bin")), "abcdef");
  }
  // tmpfs takes O_DIRECT from Linux 6.6 only: either way the bytes arrive.
  if (::access("/dev/shm", W_OK) == 0 && gsort_test::on_tmpfs("/dev/shm")) {
    const std::string path = "/dev/shm/gsort-direct-writer-test." + std::to_string(::getpid());
    {
      gsort::File f = gsort::File::create(path);
      const bool direct = f.write_around_cache(1 << 20);
      f.write_all("xyz", 3);
      f.close();
      EXPECT_EQ(gsort_test::read_file(path), "xyz") << (direct ? "direct" : "ordinary") << " writes";
    }
    ::unlink(path.c_str());
  }
}

}  // namespace
