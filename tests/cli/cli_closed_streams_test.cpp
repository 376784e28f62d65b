// gsort started with standard streams closed (as by `gsort <&-`) or pointing
// at a full device: a closed stdin or stdout is an error, never a read from or
// a write into a file gsort opened itself, and a failed write to stdout
// (also of --help and --version) names standard output and exits 2.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// Runs gsort with args after setting up descriptors 0-2: each fd in
// `redirect` is closed (empty path) or opened on the path; stderr goes to
// err_path unless redirected. Returns the exit status (-1 if it did not exit
// normally).
int run_redirected(const std::map<int, std::string>& redirect, const std::vector<std::string>& args,
                   const std::string& err_path) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err < 0 || dup2(err, 2) < 0) _exit(100);
    close(err);
    for (const auto& [fd, path] : redirect) {
      close(fd);
      if (path.empty()) continue;
      const int got = open(path.c_str(), fd == 0 ? O_RDONLY : O_WRONLY);
      if (got < 0 || (got != fd && dup2(got, fd) < 0)) _exit(102);
      if (got != fd) close(got);
    }
    std::vector<std::string> full = gsort_argv(args);
    std::vector<char*> argv;
    for (std::string& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(101);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

int run_with_closed(int closed, const std::vector<std::string>& args, const std::string& err_path) {
  return run_redirected({{closed, ""}}, args, err_path);
}

TEST(CliClosedStreams, ClosedStdinIsAnError) {
  TempDir dir;
  const std::string out = dir.file("out.bin");
  for (const std::vector<std::string>& inputs : {std::vector<std::string>{}, std::vector<std::string>{"-"}}) {
    std::vector<std::string> args = {"--record-size", "16", "-o", out};
    args.insert(args.end(), inputs.begin(), inputs.end());
    EXPECT_EQ(run_with_closed(0, args, dir.file("err")), 2);
    EXPECT_EQ(read_file(dir.file("err")), "gsort: standard input is closed\n");
    EXPECT_FALSE(path_exists(out)) << "no output may be written";
  }
  EXPECT_EQ(list_tree(dir.path()), std::vector<std::string>{"err"});
}

TEST(CliClosedStreams, ClosedStdoutIsAnErrorNotALostOutput) {
  TempDir dir;
  write_file(dir.file("in.bin"), std::string(32, 'x'));
  EXPECT_EQ(run_with_closed(1, {"--record-size", "16", dir.file("in.bin")}, dir.file("err")), 2);
  EXPECT_NE(read_file(dir.file("err")).find("standard output is closed"), std::string::npos)
      << read_file(dir.file("err"));
}

// With any of 0-2 closed, the files gsort opens (input, output, --stats)
// must not take those numbers: the sort still reads its input file and
// writes exactly the sorted records and the statistics.
TEST(CliClosedStreams, FilesNeverLandOnDescriptorsZeroToTwo) {
  const std::vector<std::vector<int>> variants = {{0}, {1}, {2}, {0, 1}, {0, 1, 2}};
  for (const std::vector<int>& closed : variants) {
    TempDir dir;
    write_file(dir.file("in.bin"), "bbbbaaaaddddcccc");
    std::map<int, std::string> redirect;
    for (int fd : closed) redirect[fd] = "";
    const int rc = run_redirected(redirect,
                                  {"--record-size", "4", "-o", dir.file("out.bin"), "--stats", dir.file("s.json"),
                                   "-T", dir.path(), dir.file("in.bin")},
                                  dir.file("err"));
    EXPECT_EQ(rc, 0) << "closed " << closed.size() << ": " << read_file(dir.file("err"));
    EXPECT_EQ(read_file(dir.file("out.bin")), "aaaabbbbccccdddd");
    EXPECT_EQ(read_file(dir.file("s.json")).rfind("{\"gsort_version\"", 0), 0u);
    EXPECT_EQ(read_file(dir.file("in.bin")), "bbbbaaaaddddcccc");
  }
}

TEST(CliClosedStreams, FullStdoutNamesStandardOutput) {
  TempDir dir;
  write_file(dir.file("in.bin"), std::string(32, 'x'));
  EXPECT_EQ(run_redirected({{1, "/dev/full"}}, {"--record-size", "16", dir.file("in.bin")}, dir.file("err")), 2);
  EXPECT_EQ(read_file(dir.file("err")), "gsort: cannot write standard output: no space left on device\n");
}

// Every way records reach standard output names it the same: in memory,
// merged from spilled runs, compressed, merged inputs, -u, --verify.
TEST(CliClosedStreams, FullStdoutNamesStandardOutputOnEveryPath) {
  TempDir dir;
  write_file(dir.file("in.bin"), std::string(2 << 20, 'x'));  // sorted already, for -m
  const std::vector<std::vector<std::string>> variants = {
      {},
      {"-S", "300K", "-T", dir.path()},
      {"--compress-output"},
      {"--compress-output=19", "-S", "300K", "-T", dir.path()},
      {"-m", dir.file("in.bin")},
      {"-u"},
      {"--verify"},
      {"-o", "-"},
  };
  for (const std::vector<std::string>& variant : variants) {
    std::vector<std::string> args = {"--record-size", "16"};
    args.insert(args.end(), variant.begin(), variant.end());
    args.push_back(dir.file("in.bin"));
    EXPECT_EQ(run_redirected({{1, "/dev/full"}}, args, dir.file("err")), 2) << command_line(args);
    EXPECT_EQ(read_file(dir.file("err")), "gsort: cannot write standard output: no space left on device\n")
        << command_line(args);
  }
}

TEST(CliClosedStreams, HelpAndVersionToAFullDeviceExitTwo) {
  TempDir dir;
  for (const char* option : {"--help", "--version"}) {
    EXPECT_EQ(run_redirected({{1, "/dev/full"}}, {option}, dir.file("err")), 2) << option;
    EXPECT_EQ(read_file(dir.file("err")), "gsort: cannot write standard output: no space left on device\n") << option;
  }
}

}  // namespace
}  // namespace gsort_test
