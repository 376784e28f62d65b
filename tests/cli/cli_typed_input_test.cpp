// gsort at a terminal behaves as sort does there: lines typed at it end at
// one end of file (Ctrl-D), and no progress line is drawn over what is
// typed or among output printed to that terminal. gsort runs in a session
// of its own on a pseudo-terminal in canonical mode (so that the EOF
// character ends the input), without echo and output processing, so that
// what the test reads back is exactly what gsort wrote.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

using Clock = std::chrono::steady_clock;

// gsort with standard input, output and error on a new pseudo-terminal,
// unless stdin_fd / stdout_fd name other descriptors for them.
class TerminalGsort {
 public:
  TerminalGsort(const std::vector<std::string>& args, int stdin_fd, int stdout_fd) {
    int slave = -1;
    winsize ws{};
    ws.ws_col = 160;
    ws.ws_row = 24;
    if (::openpty(&master_, &slave, nullptr, nullptr, &ws) != 0) throw std::runtime_error("openpty failed");
    termios t{};
    if (::tcgetattr(slave, &t) != 0) throw std::runtime_error("tcgetattr failed");
    t.c_lflag &= ~static_cast<tcflag_t>(ECHO | ECHOE | ECHOK | ECHONL);
    t.c_oflag &= ~static_cast<tcflag_t>(OPOST);
    if (::tcsetattr(slave, TCSANOW, &t) != 0) throw std::runtime_error("tcsetattr failed");
    eof_char_ = static_cast<char>(t.c_cc[VEOF]);
    std::vector<std::string> argv = gsort_argv(args);
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setsid();
      ::ioctl(slave, TIOCSCTTY, 0);
      if (::dup2(stdin_fd >= 0 ? stdin_fd : slave, 0) < 0 || ::dup2(stdout_fd >= 0 ? stdout_fd : slave, 1) < 0 ||
          ::dup2(slave, 2) < 0) {
        ::_exit(100);
      }
      ::close(master_);
      ::signal(SIGPIPE, SIG_DFL);
      ::execv(cargv[0], cargv.data());
      ::_exit(127);
    }
    ::close(slave);
  }
  ~TerminalGsort() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(master_);
  }

  // What a user types; end_of_file() is Ctrl-D.
  void type(const std::string& text) { ASSERT_EQ(::write(master_, text.data(), text.size()), ssize_t(text.size())); }
  void end_of_file() { type(std::string(1, eof_char_)); }

  // Collects what the terminal shows for `seconds`, or until `until`
  // appears in it.
  void watch(double seconds, const std::string& until = "") {
    const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < end && (until.empty() || shown.find(until) == std::string::npos)) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
      if (!read_some(static_cast<int>(std::max<long long>(left, 1)))) break;
    }
  }

  // Waits at most `seconds` for gsort to exit (collecting what it shows);
  // its exit status, or -1 if it is still running (then it is killed).
  int wait_exit(double seconds) {
    const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    int status = 0;
    while (Clock::now() < end) {
      read_some(50);
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        while (read_some(50)) {
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return -1;
  }

  std::string shown;

 private:
  // One read of the terminal if something comes within timeout_ms; false
  // when nothing did, or every slave descriptor is closed.
  bool read_some(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0 || !(p.revents & POLLIN)) return false;
    char buf[4096];
    const ssize_t n = ::read(master_, buf, sizeof buf);
    if (n <= 0) return false;
    shown.append(buf, static_cast<size_t>(n));
    return true;
  }

  int master_ = -1;
  pid_t pid_ = -1;
  bool reaped_ = false;
  char eof_char_ = 4;
};

// Longer than the progress line waits before its first draw (0.5 s), so
// that a line drawn while gsort waits would be seen.
constexpr double kUserPause = 1.2;

TEST(TypedInput, OneEndOfFileEndsTheLinesAndNothingIsDrawnOverThem) {
  TerminalGsort gsort({}, -1, -1);
  gsort.type("pear\napple\nfig\n");
  gsort.watch(kUserPause);
  EXPECT_EQ(gsort.shown, "") << "gsort drew on the terminal while lines were being typed";
  gsort.end_of_file();
  const int code = gsort.wait_exit(10);
  ASSERT_NE(code, -1) << "one end of file did not end the input (sort ends on one); shown: " << gsort.shown;
  EXPECT_EQ(code, 0);
  EXPECT_EQ(gsort.shown, "apple\nfig\npear\n");
}

// Lines from a slow pipe, printed to the terminal stderr is on: the
// output is the lines alone, with no progress line among them.
TEST(TypedInput, NoProgressLineAmongOutputToTheSameTerminal) {
  int in[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  TerminalGsort gsort({}, in[0], -1);
  ::close(in[0]);
  ASSERT_EQ(::write(in[1], "pear\napple\n", 11), 11);
  gsort.watch(kUserPause);
  ASSERT_EQ(::write(in[1], "fig\n", 4), 4);
  ::close(in[1]);
  ASSERT_EQ(gsort.wait_exit(10), 0) << gsort.shown;
  EXPECT_EQ(gsort.shown, "apple\nfig\npear\n");
}

// A sort from a slow pipe into another pipe keeps its progress line on the
// terminal (and clears it).
TEST(TypedInput, ProgressLineStaysWhenTheOutputIsAPipe) {
  int in[2], out[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  TerminalGsort gsort({}, in[0], out[1]);
  ::close(in[0]);
  ::close(out[1]);
  ASSERT_EQ(::write(in[1], "pear\napple\n", 11), 11);
  gsort.watch(10, "gsort: reading");
  EXPECT_NE(gsort.shown.find("\rgsort: reading"), std::string::npos) << gsort.shown;
  ASSERT_EQ(::write(in[1], "fig\n", 4), 4);
  ::close(in[1]);
  ASSERT_EQ(gsort.wait_exit(10), 0) << gsort.shown;
  char buf[64];
  const ssize_t n = ::read(out[0], buf, sizeof buf);
  ::close(out[0]);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<size_t>(n) : 0), "apple\nfig\npear\n");
}

}  // namespace
}  // namespace gsort_test
