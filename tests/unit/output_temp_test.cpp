// io/output_temp: the output's temporary file, unnamed (O_TMPFILE) where the
// file system allows, else a short private named file.
#include "io/output/output_temp.h"
#include "io/temp/stale_files.h"

#include <dirent.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

// The fallback where O_TMPFILE is missing: a private file named with its
// maker (io/temp/stale_files.h), whatever the destination's name.
TEST(OutputTempTest, NamedFallbackIsPrivateAndRemovedOrRenamed) {
  gsort_test::TempDir dir;
  for (bool commit : {false, true}) {
    {
      OutputTemp temp(dir.path(), dir.file("out"), "cannot create output in", dir.path(), false);
      ASSERT_EQ(gsort_test::entry_names(dir.path()).size(), 1u);
      EXPECT_EQ(gsort_test::entry_names(dir.path())[0].rfind(".gsort-", 0), 0u) << gsort_test::entry_names(dir.path())[0];
      EXPECT_EQ(gsort_test::entry_names(dir.path())[0], ".gsort-" + process_tag() + "." +
                                                            gsort_test::entry_names(dir.path())[0].substr(
                                                                8 + process_tag().size()));
      struct stat st;
      ASSERT_EQ(::stat(temp.path().c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 0777, 0600u);
      temp.file().write_all("abc", 3);
      temp.name_and_close();
      if (commit) temp.rename_onto(dir.file("out.bin"), "output", dir.file("out.bin"));
    }
    EXPECT_EQ(gsort_test::entry_names(dir.path()), commit ? std::vector<std::string>{"out.bin"} : std::vector<std::string>{});
  }
  EXPECT_EQ(gsort_test::read_file(dir.file("out.bin")), "abc");
}

// The unnamed file gets a short name only when it is committed.
TEST(OutputTempTest, UnnamedFileIsNamedAtCommit) {
  gsort_test::TempDir dir;
  OutputTemp temp(dir.path(), dir.file("out"), "cannot create output in", dir.path());
  if (!temp.path().empty()) GTEST_SKIP() << "no O_TMPFILE here";
  EXPECT_TRUE(gsort_test::entry_names(dir.path()).empty());
  temp.file().write_all("abc", 3);
  temp.name_and_close();
  ASSERT_EQ(gsort_test::entry_names(dir.path()).size(), 1u);
  EXPECT_EQ(gsort_test::entry_names(dir.path())[0].rfind(".gsort-", 0), 0u);
  temp.rename_onto(dir.file("out.bin"), "output", dir.file("out.bin"));
  EXPECT_EQ(gsort_test::entry_names(dir.path()), std::vector<std::string>{"out.bin"});
}

}  // namespace
}  // namespace gsort
