// io/temp_dir and io/stale_temp_dirs: run files have no name (the
// directory stays empty while they are written and read), the directory
// goes away with its object, and the empty directory a killed gsort leaves
// is removed by the next one, while a live one's is never touched.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/temp/stale_temp_dirs.h"
#include "io/temp/temp_dir.h"
#include "io/temp/temp_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

namespace fs = std::filesystem;
using gsort_test::dead_pid;

TEST(TempDirTest, RunFilesHaveNoNameAndTheDirectoryGoesAway) {
  gsort_test::TempDir base;
  std::string path;
  {
    TempDir t(base.path());
    path = t.path();
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(base.path()));
    EXPECT_EQ(fs::path(path).filename().string().rfind("gsort." + std::to_string(::getpid()) + ".", 0), 0u) << path;
    uint64_t n1 = 0, n2 = 0;
    TempFile f1 = t.create_file("run", &n1);
    TempFile f2 = t.create_file("merged", &n2);
    EXPECT_NE(n1, n2);
    EXPECT_EQ(f1.file.path(), path + "/run." + std::to_string(n1)) << "the name messages use";
    EXPECT_FALSE(f1.named) << "O_TMPFILE or unlink-at-once works on this file system";
    EXPECT_EQ(gsort_test::entry_names(path), std::vector<std::string>{kTempDirMarker})
        << "run files take no name in the directory; only gsort's marker is there";
    // Written and read back through the descriptor.
    f1.file.write_all("abc", 3);
    char got[3] = {};
    EXPECT_EQ(f1.file.pread_full(got, 3, 0), 3u);
    EXPECT_EQ(std::string(got, 3), "abc");
    t.remove(f1);
    EXPECT_FALSE(f1.file.is_open());
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(gsort_test::entry_names(base.path()).empty());
  {
    TempDir t(base.path() + "/");
    EXPECT_EQ(t.path().find("//"), std::string::npos) << t.path();
  }
  EXPECT_TRUE(gsort_test::entry_names(base.path()).empty());
}

// A directory a dead gsort left: mode 0700, its marker, and `files` (names
// of run files left on a file system without O_TMPFILE, or anything else).
std::string make_left_dir(const std::string& base, const std::string& suffix,
                          const std::vector<std::string>& files = {}) {
  const std::string dir = base + "/gsort." + std::to_string(dead_pid()) + "." + suffix;
  EXPECT_EQ(::mkdir(dir.c_str(), 0700), 0) << dir;
  { std::ofstream(dir + "/" + kTempDirMarker); }
  for (const std::string& f : files) std::ofstream(dir + "/" + f) << "x";
  return dir;
}

TEST(StaleTempDirs, RemovesTheDirectoriesOfDeadProcessesOnly) {
  gsort_test::TempDir base;
  // A named run left by a gsort on a file system without O_TMPFILE.
  const std::string dead = make_left_dir(base.path(), "AbC123", {"run.7"});
  // Dead too, but its lock is held (a live owner in another pid namespace).
  const std::string locked = make_left_dir(base.path(), "LoCk3d");
  const int lock = ::open(locked.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX), 0);
  // A live gsort's (this process), and names that are not gsort's.
  TempDir live(base.path());
  ASSERT_TRUE(fs::create_directory(base.path() + "/gsort.AbC123"));
  ASSERT_TRUE(fs::create_directory(base.path() + "/gsort.1x.AbC123"));
  ASSERT_TRUE(fs::create_directory(base.path() + "/other." + std::to_string(dead_pid()) + ".AbC123"));

  EXPECT_EQ(remove_stale_temp_dirs(base.path()), 1);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(locked)) << "a locked directory is in use";
  EXPECT_TRUE(fs::exists(live.path())) << "a live process's directory is never touched";
  EXPECT_EQ(gsort_test::entry_names(base.path()).size(), 5u);
  ::close(lock);
  // Unlocked now: the next sweep takes it.
  EXPECT_EQ(remove_stale_temp_dirs(base.path()), 1);
  EXPECT_FALSE(fs::exists(locked));
  EXPECT_EQ(remove_stale_temp_dirs(base.path() + "/missing"), 0);
}

// A gsort that died but is not yet reaped (a zombie: mpirun, killing a
// rank's peers, may return before their parent waits) left its directory,
// marked and unlocked: it is gone, and the next sweep removes what it left.
TEST(StaleTempDirs, AZombiesDirectoryIsRemoved) {
  gsort_test::TempDir base;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    new TempDir(base.path());  // left as a SIGKILL leaves it: never removed
    ::_exit(0);
  }
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT), 0);  // dead, not reaped
  const std::vector<std::string> left = gsort_test::entry_names(base.path());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].rfind("gsort." + std::to_string(child) + ".", 0), 0u) << left[0];
  EXPECT_EQ(remove_stale_temp_dirs(base.path()), 1);
  EXPECT_TRUE(gsort_test::entry_names(base.path()).empty());
  int status = 0;
  ::waitpid(child, &status, 0);
}

// Anyone may make a directory with a gsort-like name in a shared -T: only
// one with every sign that gsort made it for this user is removed, and
// nothing inside one that holds anything else is touched.
TEST(StaleTempDirs, LeavesWhatGsortDidNotMake) {
  gsort_test::TempDir base;
  const std::string unmarked = base.path() + "/gsort." + std::to_string(dead_pid()) + ".NoMark";
  ASSERT_EQ(::mkdir(unmarked.c_str(), 0700), 0);
  { std::ofstream(unmarked + "/mine") << "someone's data"; }
  const std::string foreign = make_left_dir(base.path(), "Other1", {"mine", "run.3"});
  const std::string open_mode = make_left_dir(base.path(), "Mode77");
  ASSERT_EQ(::chmod(open_mode.c_str(), 0777), 0);
  const std::string with_link = make_left_dir(base.path(), "Link01");
  ASSERT_EQ(::symlink("/etc/passwd", (with_link + "/run.1").c_str()), 0);
  const std::string with_subdir = make_left_dir(base.path(), "Subdir");
  ASSERT_EQ(::mkdir((with_subdir + "/run.2").c_str(), 0700), 0);
  const std::string link_to_dir = base.path() + "/gsort." + std::to_string(dead_pid()) + ".LinkTo";
  const std::string elsewhere = base.path() + "/elsewhere";
  ASSERT_EQ(::mkdir(elsewhere.c_str(), 0700), 0);
  const std::string target = make_left_dir(elsewhere, "Target");
  ASSERT_EQ(::symlink(target.c_str(), link_to_dir.c_str()), 0);

  EXPECT_EQ(remove_stale_temp_dirs(base.path()), 0);
  EXPECT_EQ(gsort_test::entry_names(unmarked), std::vector<std::string>{"mine"});
  EXPECT_EQ(gsort_test::entry_names(foreign).size(), 3u);
  EXPECT_TRUE(fs::exists(open_mode + "/" + kTempDirMarker));
  EXPECT_TRUE(fs::is_symlink(with_link + "/run.1"));
  EXPECT_TRUE(fs::is_directory(with_subdir + "/run.2"));
  EXPECT_TRUE(fs::is_symlink(link_to_dir));
  EXPECT_TRUE(fs::exists(target + "/" + kTempDirMarker)) << "a link to a directory is not followed";
}

// As root, a directory that another user owns (their marker and all) is
// theirs to clean, never ours.
TEST(StaleTempDirs, RootLeavesOtherUsersDirectories) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a directory another user owns";
  gsort_test::TempDir base;
  const std::string theirs = make_left_dir(base.path(), "Theirs", {"run.1"});
  ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
  for (const std::string f : {std::string(kTempDirMarker), std::string("run.1")}) {
    ASSERT_EQ(::chown((theirs + "/" + f).c_str(), 65534, 65534), 0);
  }
  EXPECT_EQ(remove_stale_temp_dirs(base.path()), 0);
  EXPECT_EQ(gsort_test::entry_names(theirs).size(), 2u);
}

// Signal cleanup's table: tens of thousands of paths at once, slots reused.
TEST(TempRegistry, RegistersTensOfThousandsOfPaths) {
  for (int round = 0; round < 2; ++round) {
    std::vector<int> slots;
    for (int i = 0; i < 40000; ++i) {
      int slot = -1;
      ASSERT_NO_THROW(slot = register_temp_path("/nonexistent/gsort-test/run." + std::to_string(i), false));
      ASSERT_GE(slot, 0);
      slots.push_back(slot);
    }
    std::vector<int> sorted = slots;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) << "a slot was handed out twice";
    for (int slot : slots) unregister_temp_path(slot);
  }
}

}  // namespace
}  // namespace gsort
