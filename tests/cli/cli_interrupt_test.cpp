// gsort stopped mid-run: by a terminating signal it catches (SIGQUIT, and
// SIGXFSZ from `ulimit -f`), it removes its temporary files and dies by that
// signal; by SIGKILL, it leaves no output file behind (the output's
// temporary file has no name until the commit); and while it runs, that
// temporary file is private (0600). gsort is held mid-run by a standard
// input pipe that this test keeps open; every wait is a bounded poll.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/support/proc_fds.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

struct Child {
  pid_t pid = -1;
  int stdin_w = -1;  // the write end of its standard input pipe, or -1
};

// Starts gsort with args; stdin is a pipe (stdin_path empty) or the file,
// stderr goes to err_path; `fsize` > 0 sets RLIMIT_FSIZE. No core dumps.
Child spawn(const std::vector<std::string>& args, const std::string& err_path, const std::string& stdin_path = "",
            rlim_t fsize = 0) {
  int p[2] = {-1, -1};
  if (stdin_path.empty() && pipe2(p, O_CLOEXEC) != 0) return {};
  std::vector<std::string> full = gsort_argv(args);
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = stdin_path.empty() ? p[0] : open(stdin_path.c_str(), O_RDONLY);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || err < 0 || dup2(in, 0) < 0 || dup2(err, 2) < 0) _exit(100);
    const rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (fsize > 0) {
      const rlimit limit = {fsize, fsize};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(102);
    }
    for (int sig : {SIGQUIT, SIGXFSZ, SIGPIPE, SIGINT, SIGTERM}) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    std::vector<char*> argv;
    for (std::string& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(101);
  }
  if (stdin_path.empty()) close(p[0]);
  return Child{pid, stdin_path.empty() ? p[1] : -1};
}

int wait_for(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, 0) == pid ? status : -1;
}

// Polls `done` until it holds, for at most `seconds`.
bool poll_until(const std::function<bool()>& done, double seconds = 60) {
  const timespec tick = {0, 2000000};
  for (double waited = 0; waited < seconds; waited += 0.002) {
    if (done()) return true;
    nanosleep(&tick, nullptr);
  }
  return done();
}

// "/proc/PID/fd/N" of a descriptor of pid open on a file in dir, else "".
std::string fd_in_directory(pid_t pid, const std::string& dir) {
  const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
  std::string found;
  DIR* d = opendir(fds.c_str());
  if (!d) return found;
  while (dirent* e = readdir(d)) {
    char target[4096];
    const std::string link = fds + "/" + e->d_name;
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    if (n > 0 && std::string(target, static_cast<size_t>(n)).rfind(dir + "/", 0) == 0) found = link;
  }
  closedir(d);
  return found;
}

std::string records(size_t count, size_t size) {
  std::string s(count * size, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : s) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  return s;
}

bool write_all(int fd, const std::string& bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// gsort reading a pipe that stays open, its output temporary file created.
struct BlockedSort {
  TempDir dir;
  std::string out_dir = dir.subdir("out");
  std::string tmp = dir.subdir("tmp");
  Child child;
  std::string out_fd;

  explicit BlockedSort(const std::vector<std::string>& extra = {}, const std::string& data = records(1000, 10)) {
    std::vector<std::string> args = {"--record-size", "10", "-T", tmp, "-o", out_dir + "/result.bin"};
    args.insert(args.end(), extra.begin(), extra.end());
    child = spawn(args, dir.file("err"));
    EXPECT_GT(child.pid, 0);
    EXPECT_TRUE(write_all(child.stdin_w, data));
    EXPECT_TRUE(poll_until([&] { return !(out_fd = fd_in_directory(child.pid, out_dir)).empty(); }))
        << "gsort never opened its output file";
  }
  ~BlockedSort() {
    if (child.stdin_w >= 0) close(child.stdin_w);
    if (child.pid > 0) kill(child.pid, SIGKILL), wait_for(child.pid);
  }
};

TEST(CliInterrupt, SigkillLeavesNoOutputFile) {
  BlockedSort s;
  ASSERT_EQ(kill(s.child.pid, SIGKILL), 0);
  const int status = wait_for(s.child.pid);
  s.child.pid = -1;
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_EQ(list_tree(s.out_dir), std::vector<std::string>{}) << "a killed gsort left a file beside the output";
}

TEST(CliInterrupt, OutputIsPrivateUntilCommitted) {
  const mode_t old_mask = umask(022);
  BlockedSort s;
  struct stat st {};
  ASSERT_EQ(stat(s.out_fd.c_str(), &st), 0) << s.out_fd;
  EXPECT_EQ(st.st_mode & 07777, 0600u) << "the temporary output is readable by others";
  close(s.child.stdin_w);
  s.child.stdin_w = -1;
  const int status = wait_for(s.child.pid);
  s.child.pid = -1;
  umask(old_mask);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(s.dir.file("err"));
  ASSERT_EQ(stat((s.out_dir + "/result.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u) << "a new output gets 0666 & ~umask";
}

// SIGQUIT after runs were spilled: nothing left in -T or beside the output.
TEST(CliInterrupt, SigquitCleansUpAndDiesBySignal) {
  BlockedSort s({"-S", "1M"}, records(1600000, 10));
  // Run files have no names (io/temp/temp_dir.h): they show as gsort's open descriptors.
  ASSERT_TRUE(poll_until([&] { return unnamed_files_under(s.child.pid, s.tmp) > 0; })) << "gsort spilled no run";
  ASSERT_EQ(kill(s.child.pid, SIGQUIT), 0);
  const int status = wait_for(s.child.pid);
  s.child.pid = -1;
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGQUIT) << status;
  EXPECT_EQ(list_tree(s.tmp), std::vector<std::string>{});
  EXPECT_EQ(list_tree(s.out_dir), std::vector<std::string>{});
}

// SIGINT (Ctrl-C) and SIGTERM while runs are being written as several
// streams at once: nothing left in -T or beside the output.
TEST(CliInterrupt, SigintAndSigtermWhileSpillingSeveralStreams) {
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    BlockedSort s({"-S", "4M", "--spill-streams", "4"}, records(1600000, 10));
    // A run of four files: four unnamed files open under -T.
    ASSERT_TRUE(poll_until([&] { return unnamed_files_under(s.child.pid, s.tmp) >= 4; })) << "no streams spilled";
    ASSERT_EQ(kill(s.child.pid, sig), 0);
    const int status = wait_for(s.child.pid);
    s.child.pid = -1;
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_EQ(list_tree(s.tmp), std::vector<std::string>{});
    EXPECT_EQ(list_tree(s.out_dir), std::vector<std::string>{});
  }
}

// ulimit -f: the write past the limit raises SIGXFSZ; gsort cleans up and
// dies by it (as GNU tools do) rather than failing with EFBIG.
TEST(CliInterrupt, SigxfszCleansUpAndDiesBySignal) {
  TempDir dir;
  const std::string out_dir = dir.subdir("out"), tmp = dir.subdir("tmp");
  write_file(dir.file("in.bin"), records(400000, 10));
  const Child child = spawn({"--record-size", "10", "-S", "1M", "-T", tmp, "-o", out_dir + "/result.bin"},
                            dir.file("err"), dir.file("in.bin"), 1 << 20);
  ASSERT_GT(child.pid, 0);
  const int status = wait_for(child.pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) << status << " " << read_file(dir.file("err"));
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{});
  EXPECT_EQ(list_tree(out_dir), std::vector<std::string>{});
}

}  // namespace
}  // namespace gsort_test
