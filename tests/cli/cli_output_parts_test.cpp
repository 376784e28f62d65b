// --output-parts in one process: DIR/part-00000 replaces the part it
// finds with that part's mode, every other part-N (gaps or not) goes with
// the commit and nothing else in DIR is touched; a failed run leaves the
// old set as it was and makes no new directory.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::string kInput = "dddcccbbbaaa", kSorted = "aaabbbcccddd";

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

ProcessResult sort_parts(const TempDir& dir, const std::string& input, const std::string& out) {
  return run_gsort({"--record-size", "3", "-T", dir.path(), "--output-parts", input, "-o", out});
}

TEST(CliOutputParts, ReplacesPartZeroKeepingItsModeAndRemovesEveryOtherPart) {
  TempDir dir;
  write_file(dir.file("in"), kInput);
  const std::string out = dir.subdir("out");
  write_file(out + "/part-00000", "old");
  ASSERT_EQ(::chmod((out + "/part-00000").c_str(), 0640), 0);
  write_file(out + "/part-00001", "stale");
  write_file(out + "/part-00009", "stale after a gap");
  write_file(out + "/notes.txt", "not a part");
  const ProcessResult r = sort_parts(dir, dir.file("in"), out);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(entry_names(out), (std::vector<std::string>{"notes.txt", "part-00000"}));
  EXPECT_EQ(read_file(out + "/part-00000"), kSorted);
  EXPECT_EQ(mode_of(out + "/part-00000"), 0640u);
}

TEST(CliOutputParts, AFailedRunKeepsTheOldSetAndMakesNoDirectory) {
  TempDir dir;
  write_file(dir.file("bad"), "12345");  // not whole 3-byte records
  const std::string out = dir.subdir("out");
  write_file(out + "/part-00000", "old0");
  write_file(out + "/part-00001", "old1");
  ProcessResult r = sort_parts(dir, dir.file("bad"), out);
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(entry_names(out), (std::vector<std::string>{"part-00000", "part-00001"}));
  EXPECT_EQ(read_file(out + "/part-00000"), "old0");
  EXPECT_EQ(read_file(out + "/part-00001"), "old1");
  r = sort_parts(dir, dir.file("bad"), dir.file("new"));
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(entry_names(dir.path()), (std::vector<std::string>{"bad", "out"})) << "no new directory left";
}

}  // namespace
}  // namespace gsort_test
