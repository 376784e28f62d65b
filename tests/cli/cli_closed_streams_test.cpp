// gsort started with standard input or output closed (as by `gsort <&-`):
// a closed stdin reads as empty, and output to a closed stdout is an error,
// never a write into a file gsort opened itself.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// Runs gsort with args, with fd `closed` closed and stderr to err_path;
// returns the exit status (-1 if it did not exit normally).
int run_with_closed(int closed, const std::vector<std::string>& args, const std::string& err_path) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err < 0 || dup2(err, 2) < 0) _exit(100);
    close(err);
    close(closed);
    std::vector<char*> argv;
    std::string program = GSORT_BINARY;
    argv.push_back(program.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(101);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(CliClosedStreams, ClosedStdinReadsAsEmpty) {
  TempDir dir;
  const std::string out = dir.file("out.bin");
  EXPECT_EQ(run_with_closed(0, {"--record-size", "16", "-o", out}, dir.file("err")), 0) << read_file(dir.file("err"));
  ASSERT_TRUE(path_exists(out));
  EXPECT_EQ(read_file(out), "");
}

TEST(CliClosedStreams, ClosedStdoutIsAnErrorNotALostOutput) {
  TempDir dir;
  write_file(dir.file("in.bin"), std::string(32, 'x'));
  EXPECT_EQ(run_with_closed(1, {"--record-size", "16", dir.file("in.bin")}, dir.file("err")), 2);
  EXPECT_NE(read_file(dir.file("err")).find("standard output is closed"), std::string::npos)
      << read_file(dir.file("err"));
}

}  // namespace
}  // namespace gsort_test
