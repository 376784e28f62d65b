// Binary records are not written to a terminal unless --to-terminal asks,
// as zstd refuses to write to a console: gsort run with its standard output
// on a pseudo-terminal.
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

struct TerminalRun {
  int exit_code = -1;
  std::string terminal;  // what reached the terminal
  std::string err;       // standard error (a file)
};

// Runs gsort with args, standard output on a new pseudo-terminal (raw, so
// that bytes arrive as written) and standard error to a file in dir.
TerminalRun run_on_terminal(const std::vector<std::string>& args, const TempDir& dir) {
  TerminalRun run;
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return run;
  const std::string slave_name = ::ptsname(master);
  const std::string err_path = dir.file("terminal.err");
  std::vector<std::string> argv_s = gsort_argv(args);
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int slave = ::open(slave_name.c_str(), O_RDWR | O_NOCTTY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (slave < 0 || err < 0 || ::dup2(slave, 1) < 0 || ::dup2(err, 2) < 0) _exit(100);
    struct termios t;
    if (::tcgetattr(1, &t) == 0) {
      ::cfmakeraw(&t);
      ::tcsetattr(1, TCSANOW, &t);
    }
    ::close(slave);
    ::close(err);
    ::close(master);
    ::execv(argv[0], argv.data());
    _exit(101);
  }
  int status = 0;
  // Read what arrives until the child is gone and the terminal is drained.
  for (bool exited = false;;) {
    struct pollfd p {master, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0 && (p.revents & POLLIN)) {
      char buf[4096];
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n > 0) {
        run.terminal.append(buf, static_cast<size_t>(n));
        continue;
      }
    }
    if (exited) break;
    exited = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  ::close(master);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = read_file(err_path);
  return run;
}

TEST(CliTerminal, BinaryOutputToATerminalIsRefused) {
  TempDir dir;
  write_file(dir.file("in.bin"), "dcbaDCBA");
  const TerminalRun r = run_on_terminal({"--record-size", "2", dir.file("in.bin")}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err,
            "gsort: standard output is a terminal: give -o FILE, redirect it, or --to-terminal to write the binary "
            "records there anyway\n");
  EXPECT_EQ(r.terminal, "");
}

// A name that stands for standard output is standard output: refused alike.
TEST(CliTerminal, DevStdoutOnATerminalIsRefusedToo) {
  TempDir dir;
  write_file(dir.file("in.bin"), "badcBADC");
  for (const std::string name : {"/dev/stdout", "/proc/self/fd/1"}) {
    const TerminalRun r = run_on_terminal({"--record-size", "2", "-o", name, dir.file("in.bin")}, dir);
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("standard output is a terminal"), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(r.terminal, "") << name;
  }
}

TEST(CliTerminal, ToTerminalWritesThere) {
  TempDir dir;
  write_file(dir.file("in.bin"), "dcbaDCBA");
  const TerminalRun r = run_on_terminal({"--record-size", "2", "--to-terminal", dir.file("in.bin")}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.terminal, "BADCbadc");
}

// -c and -C write no records; -o FILE and --help do not write records there.
TEST(CliTerminal, NoRecordsForTheTerminalNoRefusal) {
  TempDir dir;
  write_file(dir.file("in.bin"), "dcbaDCBA");
  TerminalRun r = run_on_terminal({"--record-size", "2", "-C", dir.file("in.bin")}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  r = run_on_terminal({"--record-size", "2", "-c", "-o", "-", "/dev/null"}, dir);
  EXPECT_EQ(r.exit_code, 2) << "-c with -o stays an error, whatever -o names: " << r.err;
  r = run_on_terminal({"--record-size", "2", "-o", dir.file("out.bin"), dir.file("in.bin")}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("out.bin")), "BADCbadc");
  r = run_on_terminal({"--help"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.terminal.find("Usage: gsort"), std::string::npos);
}

}  // namespace
}  // namespace gsort_test
