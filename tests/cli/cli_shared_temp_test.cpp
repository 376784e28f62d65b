// A shared -T (such as /tmp, mode 1777) holds other users' entries, some
// with gsort-like names. gsort, as root or as another user, removes only the
// dead gsort directories of its own user (io/temp/stale_temp_dirs.h), and
// nothing inside anyone else's. Needs root (to act as two users: root and
// nobody, through setpriv); skipped otherwise.
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// A directory a dead gsort of `owner` left in `base`: mode 0700, gsort's
// marker, and a file `name`, all owned by `owner`.
std::string left_dir(const std::string& base, const char* suffix, uid_t owner, gid_t group, const char* name) {
  const std::string dir = base + "/gsort." + std::to_string(dead_pid()) + "." + suffix;
  EXPECT_EQ(::mkdir(dir.c_str(), 0700), 0);
  for (const std::string f : {std::string(".gsort-temp"), std::string(name)}) {
    std::ofstream(dir + "/" + f) << "data";
    EXPECT_EQ(::chown((dir + "/" + f).c_str(), owner, group), 0);
  }
  EXPECT_EQ(::chown(dir.c_str(), owner, group), 0);
  return dir;
}

TEST(CliSharedTemp, EachUserRemovesOnlyItsOwnDeadDirectories) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as two users";
  const passwd* nobody = ::getpwnam("nobody");
  if (!nobody || ::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "no nobody or setpriv";
  const gid_t nogroup = ::getgrnam("nogroup") ? ::getgrnam("nogroup")->gr_gid : nobody->pw_gid;
  TempDir dir;
  const std::string shared = dir.subdir("shared");
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  write_file(dir.file("in"), "dddcccbbbaaa");
  ASSERT_EQ(::chmod(dir.file("in").c_str(), 0644), 0);
  // nobody's: a dead gsort's run file (the kind a named-run file system
  // leaves), and a file of theirs in a gsort-named directory.
  const std::string theirs = left_dir(shared, "zzzzzz", nobody->pw_uid, nogroup, "run.3");
  const std::string their_file = left_dir(shared, "yyyyyy", nobody->pw_uid, nogroup, "mine");
  // root's own dead gsort directory.
  const std::string roots = left_dir(shared, "rrrrrr", 0, 0, "run.1");

  // Root's gsort removes its own, and none of nobody's.
  ProcessResult r = run_gsort({"--record-size", "3", "-T", shared, "-o", dir.file("out_root"), dir.file("in")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(::access(roots.c_str(), F_OK) == 0) << "root's dead directory stayed";
  EXPECT_EQ(entry_names(theirs), (std::vector<std::string>{".gsort-temp", "run.3"}));
  EXPECT_EQ(entry_names(their_file), (std::vector<std::string>{".gsort-temp", "mine"}));

  // nobody's gsort removes its own dead directory, but not one holding
  // anything but run files.
  const std::string outdir = dir.subdir("out");
  ASSERT_EQ(::chmod(outdir.c_str(), 01777), 0);
  std::vector<std::string> argv = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=" + std::to_string(nogroup),
                                   "--clear-groups"};
  const std::vector<std::string> gsort =
      gsort_argv({"--record-size", "3", "-T", shared, "-o", outdir + "/out_nobody", dir.file("in")});
  argv.insert(argv.end(), gsort.begin(), gsort.end());
  r = run_process(argv);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(::access(theirs.c_str(), F_OK) == 0) << "nobody's dead directory stayed";
  EXPECT_EQ(entry_names(their_file), (std::vector<std::string>{".gsort-temp", "mine"}));
  EXPECT_EQ(read_file(outdir + "/out_nobody"), "aaabbbcccddd");
}

}  // namespace
}  // namespace gsort_test
