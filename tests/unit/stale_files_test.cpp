// io/temp/stale_files: a name beside a destination (or in /dev/shm) is
// taken for a killed gsort's only when it has the exact form gsort gives
// such names, and the file every sign of having been made by it.
#include "io/temp/stale_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

// "<host>-<dead pid>": a tag of this host whose process is gone.
std::string dead_tag() {
  return process_tag().substr(0, process_tag().find('-')) + "-" + std::to_string(gsort_test::dead_pid());
}

void make_file(const std::string& path, mode_t mode) {
  gsort_test::write_file(path, "data");
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path;
}

bool present(const gsort_test::TempDir& dir, const std::string& name) {
  const std::vector<std::string> names = gsort_test::entry_names(dir.path());
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(StaleFiles, RemovesOnlyTheExactNamesGsortMakes) {
  gsort_test::TempDir dir;
  const std::string tag = ".gsort-" + dead_tag();
  const std::vector<std::string> stale = {tag + ".Ab3dE9", tag + ".out.bin.rank-00001.x7Yz0q",
                                          tag + ".rank-00012.qqqqqq"};
  const std::vector<std::string> users = {
      tag + ".notes",         tag + ".Ab3dE9x", tag + ".Ab3d-9",  tag + ".notes.abcdef",
      tag + ".rank-1.abcdef", tag + "..abcdef", tag + "x.abcdef", ".gsort-kept-" + dead_tag() + ".Ab3dE9"};
  for (const std::string& name : stale) make_file(dir.file(name), 0600);
  for (const std::string& name : users) make_file(dir.file(name), 0600);
  EXPECT_EQ(remove_stale_files(dir.path(), ".gsort-"), static_cast<int>(stale.size()));
  for (const std::string& name : stale) EXPECT_FALSE(present(dir, name)) << name;
  for (const std::string& name : users) EXPECT_TRUE(present(dir, name)) << name << " is not a name gsort makes";
}

TEST(StaleFiles, LeavesFilesGsortWouldNotHaveMade) {
  gsort_test::TempDir dir;
  const std::string tag = ".gsort-" + dead_tag();
  make_file(dir.file(tag + ".exec01"), 0700);  // execute bits: not a mode gsort gives
  make_file(dir.file(tag + ".linked"), 0600);  // a second link: someone else's too
  ASSERT_EQ(::link(dir.file(tag + ".linked").c_str(), dir.file("other-name").c_str()), 0);
  ASSERT_EQ(::mkdir(dir.file(tag + ".dir001").c_str(), 0700), 0);
  ASSERT_EQ(::symlink("/etc/hostname", dir.file(tag + ".link01").c_str()), 0);
  make_file(dir.file(".gsort-" + process_tag() + ".live01"), 0600);  // a live process's
  make_file(dir.file(tag + ".plain1"), 0644);                        // a new file's mode: gsort's
  EXPECT_EQ(remove_stale_files(dir.path(), ".gsort-"), 1);
  EXPECT_FALSE(present(dir, tag + ".plain1"));
  EXPECT_EQ(gsort_test::entry_names(dir.path()).size(), 6u);
}

}  // namespace
}  // namespace gsort
