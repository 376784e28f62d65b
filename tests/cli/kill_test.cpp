// SIGKILL leaves nothing that takes space (issue 11): gsort's run files
// have no name, so the kernel frees them with the process; what a killed
// gsort leaves in -T is one empty directory, which the next gsort removes.
// gsort is stopped at a known point without sleeps: its input is a pipe or
// FIFO this test holds open, and the test polls (bounded) /proc/PID/fd and
// the size of its standard output until gsort is there, then kills it.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/proc_fds.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs.h"

namespace gsort_test {
namespace {

const RefSpec kGensort = {100, {RefKey{0, 10, RefKind::kBytes, false, false}}, false, false};

void write_fully(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n > 0) done += static_cast<size_t>(n);
    if (n < 0 && errno != EINTR) return;  // the child is gone
  }
}

// Polls every 2 ms (at most timeout_s) until `ready`, or the child ends.
bool wait_until(Process& child, const std::function<bool()>& ready, double timeout_s = 60) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline && child.running()) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// What the running child has written to stderr so far (its capture file).
std::string stderr_so_far(pid_t pid) {
  try {
    return read_file("/proc/" + std::to_string(pid) + "/fd/2");
  } catch (const std::exception&) {
    return "";
  }
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// -T on a tmpfs of its own where one can be mounted, so that its used
// space is exact; else a plain directory, and the space goes unchecked.
class KillScene {
 public:
  KillScene() : tmp_(dir_.subdir("tmp")), tmpfs_(tmp_, "256m") { used_before_ = used_bytes(tmp_); }
  const TempDir& dir() const { return dir_; }
  const std::string& tmp() const { return tmp_; }

  // After the kill: in -T at most the killed gsort's directory, holding
  // nothing but its empty marker (io/temp/stale_temp_dirs.h); the space
  // back; and the next gsort removes the directory.
  void expect_nothing_left(const std::string& what) {
    SCOPED_TRACE(what);
    std::vector<std::string> left;
    for (const std::string& name : list_tree(tmp_)) {
      const bool marker = name.size() >= 12 && name.compare(name.size() - 12, 12, "/.gsort-temp") == 0;
      if (!marker) left.push_back(name);
    }
    EXPECT_LE(left.size(), 1u);
    for (const std::string& name : left) EXPECT_EQ(name.rfind("gsort.", 0), 0u) << name;
    if (tmpfs_.mounted()) {
      EXPECT_EQ(used_bytes(tmp_), used_before_) << "space in -T not given back";
    } else {
      std::printf("[ note ] no tmpfs (%s): the space in -T is not checked\n", tmpfs_.error().c_str());
    }
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = std::string(1000, 'x');
    const ProcessResult r = run_gsort({"--format", "gensort", "-T", tmp_}, in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(list_tree(tmp_), std::vector<std::string>{}) << "the next gsort removes the dead one's directory";
  }

 private:
  TempDir dir_;
  std::string tmp_;
  Tmpfs tmpfs_;
  long long used_before_ = 0;
};

class CliKill : public testing::TestWithParam<bool> {
 protected:
  std::vector<std::string> compress() const {
    return GetParam() ? std::vector<std::string>{"--compress-temp"} : std::vector<std::string>{};
  }
};

// Killed while spilling: its input, a pipe, never ends.
TEST_P(CliKill, WhileSpillingLeavesNothing) {
  KillScene scene;
  std::vector<std::string> args = {"--format", "gensort", "-S", "256K", "-T", scene.tmp()};
  for (const std::string& a : compress()) args.push_back(a);
  Process child(gsort_argv(args), ProcessOptions{StdinKind::kPipe, "", "", {}});
  const int fd = child.take_stdin();
  Rng rng(60);
  // 8 MB: some 30 runs, early merges among them; the pipe stays open.
  write_fully(fd, rng.bytes(80000 * 100));
  const bool spilled = wait_until(child, [&] { return unnamed_files_under(child.pid(), scene.tmp()) >= 3; });
  child.send_signal(SIGKILL);
  const ProcessResult r = child.wait(30);
  close(fd);
  ASSERT_TRUE(spilled) << "no run files open under -T before " << r.status() << ": " << r.err;
  EXPECT_EQ(r.term_signal, SIGKILL);
  scene.expect_nothing_left("killed while spilling");
}

// Killed in the final merge of -m: four parts merged early into one run
// (--batch-size 2: three merges, said under -v), and a FIFO as the last
// input that gives a few records and then nothing, so the final merge waits
// on it, its run open, until killed.
TEST_P(CliKill, WhileMergingLeavesNothing) {
  KillScene scene;
  const TempDir& dir = scene.dir();
  std::vector<std::string> args = {"--format", "gensort", "-m", "-v", "--batch-size", "2", "-S", "256K", "-T",
                                   scene.tmp()};
  for (const std::string& a : compress()) args.push_back(a);
  Rng rng(61);
  for (int i = 0; i < 4; ++i) {
    args.push_back(dir.file("part" + std::to_string(i)));
    write_file(args.back(), reference_sort(rng.bytes(20000 * 100), kGensort));
  }
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  args.push_back(fifo);
  // Read-write, so that opening it does not wait for gsort.
  const int fd = open(fifo.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  write_fully(fd, std::string(10 * 100, '\xff'));  // sorts last
  Process child(gsort_argv(args), ProcessOptions{});
  const bool merging = wait_until(child, [&] {
    return occurrences(stderr_so_far(child.pid()), " early: ") == 3 &&
           unnamed_files_under(child.pid(), scene.tmp()) >= 1;
  });
  child.send_signal(SIGKILL);
  const ProcessResult r = child.wait(30);
  close(fd);
  ASSERT_TRUE(merging) << "never in the final merge with a run open before " << r.status() << ": " << r.err;
  EXPECT_EQ(r.term_signal, SIGKILL);
  scene.expect_nothing_left("killed while merging");
}

INSTANTIATE_TEST_SUITE_P(PlainAndCompressedRuns, CliKill, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) {
                           return std::string(p.param ? "CompressTemp" : "Plain");
                         });

}  // namespace
}  // namespace gsort_test
