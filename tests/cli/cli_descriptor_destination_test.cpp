// A destination that stands for a descriptor (/dev/stdout, /dev/fd/N,
// /proc/self/fd/N, and links to them) is written through the descriptor,
// from where it stands, and never renamed over: the link survives and the
// bytes reach whatever the descriptor is (here the runner's stdout, an
// unlinked file, as Python's TemporaryFile() would be).
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::string kInput = "dddcccbbbaaa", kSorted = "aaabbbcccddd";

bool is_link(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

ProcessResult sort_to(const TempDir& dir, const std::string& out) {
  return run_gsort({"--record-size", "3", "-T", dir.path(), "-o", out, dir.file("in.bin")});
}

TEST(CliDescriptorDestination, LinkToOwnStdoutIsWrittenThroughNotReplaced) {
  for (const std::string target : {"/proc/self/fd/1", "/dev/fd/1", "/dev/stdout"}) {
    TempDir dir;
    write_file(dir.file("in.bin"), kInput);
    ASSERT_EQ(symlink(target.c_str(), dir.file("so").c_str()), 0);
    const ProcessResult r = sort_to(dir, dir.file("so"));
    ASSERT_EQ(r.status(), "exit 0") << target << ": " << r.err;
    EXPECT_EQ(r.out, kSorted) << target;
    EXPECT_TRUE(is_link(dir.file("so"))) << target << ": the link was replaced";
    EXPECT_EQ(entry_names(dir.path()), (std::vector<std::string>{"in.bin", "so"})) << target;
  }
}

TEST(CliDescriptorDestination, DescriptorNamesAreWrittenThrough) {
  for (const std::string name : {"/dev/stdout", "/proc/self/fd/1", "/dev/fd/1", "/proc/thread-self/fd/1"}) {
    TempDir dir;
    write_file(dir.file("in.bin"), kInput);
    const ProcessResult r = sort_to(dir, name);
    ASSERT_EQ(r.status(), "exit 0") << name << ": " << r.err;
    EXPECT_EQ(r.out, kSorted) << name;
  }
  EXPECT_TRUE(is_link("/dev/stdout")) << "the system's /dev/stdout was replaced";
}

// As "-" does: the records go where the descriptor stands, between what
// the shell wrote before and after.
TEST(CliDescriptorDestination, StdoutKeepsWhatCameBeforeAndAfter) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  const std::string script = "{ echo before; \"$0\" --record-size 3 -o /dev/stdout \"$1\"; echo after; }";
  const ProcessResult r = run_process({"/bin/sh", "-c", script, GSORT_BINARY, dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "before\n" + kSorted + "after\n");
}

TEST(CliDescriptorDestination, ClosedDescriptorIsAnError) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  const ProcessResult r = sort_to(dir, "/proc/self/fd/900");
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_NE(r.err.find("/proc/self/fd/900"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

}  // namespace
}  // namespace gsort_test
