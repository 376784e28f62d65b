// An existing destination replaced by -o: its mode, owner, group and
// extended attributes are kept (one with other hard links, or another
// user's in a sticky directory, is written in place), its write permission
// is required, symbolic links are followed
// (dangling ones too) and kept, a loop is refused; names of any valid length
// work.
#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::string kInput = "dddcccbbbaaa", kSorted = "aaabbbcccddd";

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

ProcessResult sort_into(const std::string& dir, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--record-size", "3", "-T", dir, "-o", out, dir + "/in.bin"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_gsort(args);
}

TEST(CliDestination, ReplacedFileKeepsItsMode) {
  for (mode_t mode : {0600u, 0640u, 0604u}) {
    TempDir dir;
    write_file(dir.file("in.bin"), kInput);
    write_file(dir.file("out.bin"), "old");
    ASSERT_EQ(chmod(dir.file("out.bin").c_str(), mode), 0);
    const ProcessResult r = sort_into(dir.path(), dir.file("out.bin"));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(read_file(dir.file("out.bin")), kSorted);
    EXPECT_EQ(mode_of(dir.file("out.bin")), mode) << std::oct << mode;
  }
}

// Owner and group can only be given away by root.
TEST(CliDestination, ReplacedFileKeepsItsOwnerAsRoot) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to own a file as another user";
  const passwd* nobody = getpwnam("nobody");
  if (!nobody) GTEST_SKIP() << "no user nobody";
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  ASSERT_EQ(chown(dir.file("in.bin").c_str(), nobody->pw_uid, nobody->pw_gid), 0);
  ASSERT_EQ(chmod(dir.file("in.bin").c_str(), 0640), 0);
  const ProcessResult r = sort_into(dir.path(), dir.file("in.bin"));  // -o names the input
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  struct stat st {};
  ASSERT_EQ(stat(dir.file("in.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, nobody->pw_uid);
  EXPECT_EQ(st.st_gid, nobody->pw_gid);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(read_file(dir.file("in.bin")), kSorted);
}

// A read-only destination in a writable directory is refused, as opening it
// for writing would be. As root, gsort runs as nobody (root may write it).
TEST(CliDestination, ReadOnlyDestinationIsRefused) {
  TempDir dir;
  ASSERT_EQ(chmod(dir.path().c_str(), 0777), 0);
  write_file(dir.file("in.bin"), kInput);
  write_file(dir.file("out.bin"), "old");
  ASSERT_EQ(chmod(dir.file("in.bin").c_str(), 0644), 0);
  ASSERT_EQ(chmod(dir.file("out.bin").c_str(), 0444), 0);
  std::vector<std::string> argv = {"/usr/bin/env"};
  if (geteuid() == 0) {
    if (!getpwnam("nobody") || access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "no nobody or setpriv";
    argv = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    if (!getgrnam("nogroup")) argv[2] = "--regid=nobody";
  }
  const std::vector<std::string> gsort =
      gsort_argv({"--record-size", "3", "-o", dir.file("out.bin"), dir.file("in.bin")});
  argv.insert(argv.end(), gsort.begin(), gsort.end());
  const ProcessResult r = run_process(argv);
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: cannot write output " + dir.file("out.bin") + ": Permission denied\n");
  EXPECT_EQ(read_file(dir.file("out.bin")), "old");
  EXPECT_EQ(list_tree(dir.path()), (std::vector<std::string>{"in.bin", "out.bin"}));
}

// The link is kept; its (missing) target is created.
TEST(CliDestination, DanglingSymlinkIsFollowed) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  const std::string sub = dir.subdir("sub");
  ASSERT_EQ(symlink("sub/target.bin", dir.file("link.bin").c_str()), 0);
  const ProcessResult r = sort_into(dir.path(), dir.file("link.bin"));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  struct stat st {};
  ASSERT_EQ(lstat(dir.file("link.bin").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced";
  EXPECT_EQ(read_file(sub + "/target.bin"), kSorted);
}

TEST(CliDestination, SymlinkLoopIsRefused) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  ASSERT_EQ(symlink("b.lnk", dir.file("a.lnk").c_str()), 0);
  ASSERT_EQ(symlink("a.lnk", dir.file("b.lnk").c_str()), 0);
  const ProcessResult r = sort_into(dir.path(), dir.file("a.lnk"));
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: cannot write output " + dir.file("a.lnk") + ": Too many levels of symbolic links\n");
  struct stat st {};
  ASSERT_EQ(lstat(dir.file("a.lnk").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced";
  EXPECT_EQ(entry_names(dir.path()), (std::vector<std::string>{"a.lnk", "b.lnk", "in.bin"}));
}

// The temporary name does not grow with the destination's: NAME_MAX works.
TEST(CliDestination, LongestFileNameWorks) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  const std::string out = dir.subdir("out") + "/" + std::string(255, 'n');
  const ProcessResult r = sort_into(dir.path(), out, {"--stats", dir.file("out") + "/" + std::string(255, 's')});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(out), kSorted);
  EXPECT_EQ(list_tree(dir.file("out")).size(), 2u);
}

// As sort -o: a destination with other hard links is written in place, so
// that every name sees the sorted bytes (it was replaced by a new file, and
// the other names kept the old bytes).
TEST(CliDestination, HardLinkedDestinationIsWrittenInPlace) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  write_file(dir.file("out.bin"), "old bytes, longer than the output");
  ASSERT_EQ(link(dir.file("out.bin").c_str(), dir.file("other.bin").c_str()), 0);
  struct stat before {};
  ASSERT_EQ(stat(dir.file("out.bin").c_str(), &before), 0);
  ASSERT_EQ(sort_into(dir.path(), dir.file("out.bin")).status(), "exit 0");
  struct stat after {};
  ASSERT_EQ(stat(dir.file("out.bin").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(read_file(dir.file("out.bin")), kSorted);
  EXPECT_EQ(read_file(dir.file("other.bin")), kSorted);
  std::vector<std::string> names = list_tree(dir.path());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"in.bin", "other.bin", "out.bin"}));
  // A failure before the copy leaves both names as they were.
  write_file(dir.file("in.bin"), "odd");
  write_file(dir.file("out.bin"), "old");
  EXPECT_EQ(run_gsort({"--record-size", "2", "-o", dir.file("out.bin"), dir.file("in.bin")}).status(), "exit 2");
  EXPECT_EQ(read_file(dir.file("other.bin")), "old");
}

// Another user's writable file in a sticky directory (/tmp): sort -o writes
// it; the rename gsort would make is refused there, so it is written in
// place, seen before any work (it failed at the rename, after the sort).
TEST(CliDestination, OtherUsersFileInAStickyDirectoryIsWrittenInPlace) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to act as two users";
  if (!getpwnam("nobody") || access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "no nobody or setpriv";
  TempDir dir;
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  const std::string shared = dir.subdir("shared");
  ASSERT_EQ(chmod(shared.c_str(), 01777), 0);
  write_file(dir.file("in.bin"), kInput);
  ASSERT_EQ(chmod(dir.file("in.bin").c_str(), 0644), 0);
  const std::string out = shared + "/roots.bin";
  write_file(out, "old");
  ASSERT_EQ(chmod(out.c_str(), 0666), 0);
  std::vector<std::string> argv = {"/usr/bin/setpriv", "--reuid=nobody",
                                   getgrnam("nogroup") ? "--regid=nogroup" : "--regid=nobody", "--clear-groups"};
  const std::vector<std::string> gsort =
      gsort_argv({"--record-size", "3", "-T", shared, "-o", out, dir.file("in.bin")});
  argv.insert(argv.end(), gsort.begin(), gsort.end());
  const ProcessResult r = run_process(argv);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(out), kSorted);
  struct stat st {};
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 0u) << "still root's file";
  EXPECT_EQ(st.st_mode & 07777, 0666u);
  EXPECT_EQ(list_tree(shared), (std::vector<std::string>{"roots.bin"}));
}

// A replaced file's extended attributes, its ACL among them, go to the
// file that replaces it (they were dropped).
TEST(CliDestination, ReplacedFileKeepsItsExtendedAttributesAndAcl) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  write_file(dir.file("out.bin"), "old");
  if (setxattr(dir.file("out.bin").c_str(), "user.origin", "lab", 3, 0) != 0) {
    GTEST_SKIP() << "no user extended attributes here";
  }
  // The ACL u::rw-,u:65534:r--,g::r--,m::r--,o::--- as Linux stores it.
  std::string acl;
  const auto put = [&acl](uint32_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) acl += static_cast<char>((v >> (8 * b)) & 0xff);
  };
  put(2, 4);
  for (const auto& [tag, perm, id] : std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>{
           {0x01, 6, ~0u}, {0x02, 4, 65534}, {0x04, 4, ~0u}, {0x10, 4, ~0u}, {0x20, 0, ~0u}}) {
    put(tag, 2);
    put(perm, 2);
    put(id, 4);
  }
  const bool has_acl = setxattr(dir.file("out.bin").c_str(), "system.posix_acl_access", acl.data(), acl.size(), 0) == 0;
  ASSERT_EQ(sort_into(dir.path(), dir.file("out.bin")).status(), "exit 0");
  EXPECT_EQ(read_file(dir.file("out.bin")), kSorted);
  char value[64] = {};
  EXPECT_EQ(getxattr(dir.file("out.bin").c_str(), "user.origin", value, sizeof value), 3);
  EXPECT_EQ(std::string(value, 3), "lab");
  if (has_acl) {
    std::string got(256, '\0');
    const ssize_t n = getxattr(dir.file("out.bin").c_str(), "system.posix_acl_access", got.data(), got.size());
    ASSERT_GT(n, 0);
    got.resize(static_cast<size_t>(n));
    EXPECT_TRUE(got == acl) << "the ACL";
  }
}

}  // namespace
}  // namespace gsort_test
