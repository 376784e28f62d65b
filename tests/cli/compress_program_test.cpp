// --compress-program's children (issue 52): a terminating signal leaves
// none of them running; no more compressors run at once than --parallel,
// and no more decompressors than a merge's fan-in (--batch-size); a
// `PROG -d` that fails is named as sort names it, exit 2, with no
// temporary file left. Each for text lines and for records, whose
// pipelines share the run files (src/merge/temp_runs.h). The programs are
// shell scripts in the test's scratch directory, whose path is unique, so
// /proc/PID/cmdline finds their processes. Every wait is a bounded poll on
// a condition: a file a program made, a process gone.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

enum class Pipeline { kLines, kRecords };

std::string pipeline_name(Pipeline p) { return p == Pipeline::kLines ? "Lines" : "Records"; }

// Polls every 2 ms, for at most `seconds`, until `done`.
bool poll_until(const std::function<bool()>& done, double seconds = 60) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return done();
}

// The processes whose command line holds `marker` (a zombie's is empty).
std::vector<pid_t> processes_with(const std::string& marker) {
  std::vector<pid_t> found;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* e = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
    if (pid <= 0) continue;
    FILE* f = std::fopen(("/proc/" + std::string(e->d_name) + "/cmdline").c_str(), "r");
    if (f == nullptr) continue;
    std::string cmdline;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) cmdline.append(buf, n);
    std::fclose(f);
    if (cmdline.find(marker) != std::string::npos) found.push_back(pid);
  }
  closedir(proc);
  return found;
}

// Entries of `dir` whose name starts with `prefix`.
size_t entries_starting(const std::string& dir, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& name : entry_names(dir)) n += name.rfind(prefix, 0) == 0;
  return n;
}

// The largest number, one a line, in `path` (0 when it is missing).
int largest_in(const std::string& path) {
  if (!path_exists(path)) return 0;
  std::istringstream in(read_file(path));
  int largest = 0;
  for (int n; in >> n;) largest = std::max(largest, n);
  return largest;
}

// Lines written one a line, in `path`.
size_t lines_in(const std::string& path) {
  if (!path_exists(path)) return 0;
  const std::string text = read_file(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A scratch directory with an input that spills under -S `memory` (lines:
// `count` numbers of 7 digits, in reverse; records: `count` of 16 random
// bytes), -T in it, and the programs written there.
class Scene {
 public:
  Scene(Pipeline pipeline, int count, std::string memory)
      : pipeline_(pipeline), memory_(std::move(memory)), tmp_(dir_.subdir("tmp")), input_(dir_.file("in")) {
    std::string data;
    if (pipeline == Pipeline::kLines) {
      char line[16];
      for (int i = count; i > 0; --i) {
        data.append(line, static_cast<size_t>(std::snprintf(line, sizeof line, "%07d\n", i)));
      }
    } else {
      Rng rng(52);
      data = rng.bytes(static_cast<size_t>(count) * 16);
    }
    write_file(input_, data);
  }
  // Some tens of runs of one file each: lines 100000, records 300000, -S 1M.
  explicit Scene(Pipeline pipeline) : Scene(pipeline, pipeline == Pipeline::kLines ? 100000 : 300000, "1M") {}

  const TempDir& dir() const { return dir_; }
  const std::string& tmp() const { return tmp_; }

  // An executable script called `name` in the directory; its path.
  std::string program(const std::string& name, const std::string& text) const {
    const std::string path = dir_.file(name);
    write_file(path, "#!/bin/sh\n" + text);
    if (chmod(path.c_str(), 0755) != 0) throw std::runtime_error("chmod " + path);
    return path;
  }

  // gsort's arguments: the pipeline's, then `more`, then the input. Records
  // on the CPU backend: on a GPU, the device's memory holds runs that
  // would otherwise spill (the device tier), and none goes through PROG.
  std::vector<std::string> args(const std::vector<std::string>& more) const {
    std::vector<std::string> a = {"-S", memory_, "-T", tmp_};
    if (pipeline_ == Pipeline::kRecords) {
      a.insert(a.end(), {"--backend", "cpu", "--record-size", "16", "--key", "0:u64"});
    }
    a.insert(a.end(), more.begin(), more.end());
    a.push_back(input_);
    return a;
  }

 private:
  const Pipeline pipeline_;
  const std::string memory_;
  TempDir dir_;
  const std::string tmp_;
  const std::string input_;
};

// A program that says it started (started.PID beside it) and then waits
// forever, in the shell itself (opening a FIFO no one writes), so that its
// process is the one gsort started.
const char* const kHangs =
    "d=$(dirname \"$0\")\n"
    ": > \"$d/started.$$\"\n"
    "read x < \"$d/never\"\n";

// A program that swaps 4 and 1 both ways (so PROG -d undoes PROG) and
// counts: each run of it, compressor (c) or decompressor (d), makes
// live.KIND.PID while it runs, and appends how many of its kind live
// then to counts.KIND. A file lives inside its process's life, which lies
// inside gsort's start and wait, so no count is above what gsort ran at
// once. `slow_compressors`: each takes 0.1 s more, so that without a
// bound, spills overlap.
std::string counting_program(bool slow_compressors) {
  return std::string(
             "d=$(dirname \"$0\")\n"
             "if [ \"$1\" = -d ]; then kind=d; else kind=c; fi\n"
             ": > \"$d/live.$kind.$$\"\n"
             "ls \"$d\" | grep -c \"^live\\.$kind\\.\" >> \"$d/counts.$kind\"\n"
             "tr 41 14\n"
             "status=$?\n") +
         (slow_compressors ? "if [ $kind = c ]; then sleep 0.1; fi\n" : "") +
         "rm -f \"$d/live.$kind.$$\"\n"
         "exit $status\n";
}

class CompressProgramSignal : public testing::TestWithParam<std::tuple<Pipeline, int>> {};

// Stopped by a terminating signal while its compressors hang, gsort dies
// by that signal, leaves no temporary file, and none of the processes it
// started (sort leaves one; gsort used to leave every compressor).
TEST_P(CompressProgramSignal, LeavesNoProgramRunning) {
  const auto [pipeline, sig] = GetParam();
  Scene scene(pipeline);
  const std::string program = scene.program("hangs", kHangs);
  ASSERT_EQ(mkfifo(scene.dir().file("never").c_str(), 0600), 0);
  Process child(gsort_argv(scene.args({"--compress-program=" + program, "-o", scene.dir().file("out")})),
                c_locale());
  poll_until([&] { return entries_starting(scene.dir().path(), "started.") > 0 || !child.running(); });
  const bool started = entries_starting(scene.dir().path(), "started.") > 0;
  child.send_signal(sig);
  const ProcessResult r = child.wait(60);
  poll_until([&] { return processes_with(program).empty(); }, 10);
  const std::vector<pid_t> left = processes_with(program);
  std::string pids;
  for (const pid_t pid : left) {
    pids += " " + std::to_string(pid);
    kill(pid, SIGKILL);  // so that they do not outlive the test either
  }
  ASSERT_TRUE(started) << "no compressor started: " << r.status() << ": " << r.err;
  EXPECT_EQ(r.term_signal, sig) << r.status() << ": " << r.err;
  EXPECT_EQ(left.size(), 0u) << "of the program's processes outlived gsort:" << pids;
  EXPECT_EQ(list_tree(scene.tmp()), std::vector<std::string>{});
  EXPECT_FALSE(path_exists(scene.dir().file("out")));
}

INSTANTIATE_TEST_SUITE_P(Signals, CompressProgramSignal,
                         testing::Combine(testing::Values(Pipeline::kLines, Pipeline::kRecords),
                                          testing::Values(SIGTERM, SIGINT, SIGHUP, SIGPIPE)),
                         [](const testing::TestParamInfo<std::tuple<Pipeline, int>>& p) {
                           const int sig = std::get<1>(p.param);
                           return pipeline_name(std::get<0>(p.param)) +
                                  (sig == SIGTERM ? "Term" : sig == SIGINT ? "Int" : sig == SIGHUP ? "Hup" : "Pipe");
                         });

class CompressProgram : public testing::TestWithParam<Pipeline> {
 protected:
  // The sorted input, as gsort sorts it without a program.
  std::string expected(const Scene& scene) const {
    const ProcessResult r = run_gsort(scene.args({}), c_locale());
    if (r.status() != "exit 0") throw std::runtime_error("the plain sort failed: " + r.err);
    return r.out;
  }
};

// --parallel 2: never more than two compressors at once, however many runs
// are spilled, and the output is the plain sort's.
TEST_P(CompressProgram, RunsAtMostOneCompressorAThread) {
  Scene scene(GetParam());
  const std::string program = scene.program("counts", counting_program(true));
  const ProcessResult r = run_gsort(scene.args({"--parallel", "2", "--compress-program=" + program}), c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(r.out == expected(scene)) << "the output differs from the plain sort's";
  EXPECT_GT(lines_in(scene.dir().file("counts.c")), 2u) << "too few runs to show the bound";
  EXPECT_LE(largest_in(scene.dir().file("counts.c")), 2) << "compressors at once";
  EXPECT_EQ(list_tree(scene.tmp()), std::vector<std::string>{});
}

// --batch-size 2 with runs of four segments (two for lines, -S 8M): a
// merge reads two runs, each through one decompressor at a time (a
// segment's starts once the one before it is read), so never more than two
// run at once.
TEST_P(CompressProgram, RunsAtMostOneDecompressorARunMerged) {
  const bool lines = GetParam() == Pipeline::kLines;
  Scene scene(GetParam(), lines ? 1000000 : 300000, lines ? "8M" : "4M");
  const std::string program = scene.program("counts", counting_program(false));
  const ProcessResult r = run_gsort(
      scene.args({"--batch-size", "2", "--spill-streams", "4", "--compress-program=" + program}), c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(r.out == expected(scene)) << "the output differs from the plain sort's";
  EXPECT_GT(lines_in(scene.dir().file("counts.d")), 2u) << "too few runs to show the bound";
  EXPECT_LE(largest_in(scene.dir().file("counts.d")), 2) << "decompressors at once";
  EXPECT_EQ(list_tree(scene.tmp()), std::vector<std::string>{});
}

// PROG -d exiting 1 without a byte: sort's message, naming the program,
// one line, exit 2, no output and no temporary file (gsort used to call
// the run file truncated).
TEST_P(CompressProgram, AFailingDecompressorIsNamedWithExit2) {
  Scene scene(GetParam());
  const std::string program = scene.program("fails-d", "if [ \"$1\" = -d ]; then exit 1; fi\nexec cat\n");
  const std::string out = scene.dir().file("out");
  const ProcessResult r = run_gsort(scene.args({"--compress-program=" + program, "-o", out}), c_locale());
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: '" + program + "' [-d] terminated abnormally\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(path_exists(out));
  EXPECT_EQ(list_tree(scene.tmp()), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Pipelines, CompressProgram, testing::Values(Pipeline::kLines, Pipeline::kRecords),
                         [](const testing::TestParamInfo<Pipeline>& p) { return pipeline_name(p.param); });

}  // namespace
}  // namespace gsort_test
