#include "tests/support/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace gsort_test {

namespace {

std::runtime_error sys_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// A descriptor above 2 for the same file (closing fd). posix_spawn's dup2 of
// a descriptor onto itself would leave FD_CLOEXEC set, so a test runner
// started with stdin closed (as CI runs it) would hand the child a closed
// fd 0.
int above_standard_fds(int fd) {
  if (fd > 2) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (moved < 0) throw sys_error("fcntl F_DUPFD_CLOEXEC");
  close(fd);
  return moved;
}

int make_capture_file() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/gsort-capture.XXXXXX";
  const int fd = mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) throw sys_error("mkostemp " + pattern);
  unlink(pattern.c_str());
  return above_standard_fds(fd);
}

std::string read_all_from_start(int fd) {
  std::string bytes;
  if (lseek(fd, 0, SEEK_SET) < 0) return bytes;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      bytes.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  return bytes;
}

// Writes everything, or stops at the first error (EPIPE when the child is
// gone), then closes fd.
void feed_and_close(int fd, std::string data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      break;
    }
  }
  close(fd);
}

std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& o : overrides) {
      if (o.substr(0, o.find('=')) == name) replaced = true;
    }
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string ProcessResult::status() const {
  if (timed_out) return "timed out";
  if (term_signal != 0) return "signal " + std::to_string(term_signal);
  return "exit " + std::to_string(exit_code);
}

Process::Process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  signal(SIGPIPE, SIG_IGN);

  int stdin_child = -1;
  if (options.stdin_kind == StdinKind::kPipe) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw sys_error("pipe2");
    stdin_child = above_standard_fds(fds[0]);
    stdin_fd_ = above_standard_fds(fds[1]);
  } else {
    const std::string path =
        options.stdin_kind == StdinKind::kFile ? options.stdin_path : "/dev/null";
    stdin_child = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (stdin_child < 0) throw sys_error("open " + path);
    stdin_child = above_standard_fds(stdin_child);
  }
  out_fd_ = make_capture_file();
  err_fd_ = make_capture_file();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdin_child, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd_, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd_, 2);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) sigaddset(&defaults, sig);
  sigset_t no_mask;
  sigemptyset(&no_mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &no_mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> args = argv;
  if (options.open_file_limit > 0) {
    args = {"/bin/sh", "-c", "ulimit -n " + std::to_string(options.open_file_limit) + " && exec \"$@\"", "sh"};
    args.insert(args.end(), argv.begin(), argv.end());
  }
  std::vector<std::string> env = merged_environment(options.env);
  std::vector<char*> c_args = c_strings(args);
  std::vector<char*> c_env = c_strings(env);
  const int rc = posix_spawn(&pid_, c_args[0], &actions, &attr, c_args.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(stdin_child);
  if (rc != 0) {
    errno = rc;
    pid_ = -1;
    reaped_ = true;
    throw sys_error("posix_spawn " + argv[0]);
  }

  if (options.stdin_kind == StdinKind::kPipe && !options.stdin_data.empty()) {
    feeder_ = std::thread(feed_and_close, stdin_fd_, options.stdin_data);
    stdin_fd_ = -1;
  }
  // A pipe without data stays open for take_stdin(); wait() closes it if
  // nobody took it.
}

Process::~Process() {
  if (!reaped_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &raw_status_, 0);
  }
  if (feeder_.joinable()) feeder_.join();
  if (stdin_fd_ >= 0) close(stdin_fd_);
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

int Process::take_stdin() {
  const int fd = stdin_fd_;
  stdin_fd_ = -1;
  return fd;
}

void Process::send_signal(int sig) {
  if (!reaped_) kill(pid_, sig);
}

bool Process::running() {
  if (reaped_) return false;
  struct rusage usage;
  const pid_t r = wait4(pid_, &raw_status_, WNOHANG, &usage);
  if (r == pid_) {
    reaped_ = true;
    max_rss_kb_ = usage.ru_maxrss;
  }
  return !reaped_;
}

ProcessResult Process::wait(double timeout_s) {
  ProcessResult result;
  // A stdin write end still held here would keep a child reading stdin
  // waiting forever.
  if (stdin_fd_ >= 0) {
    close(stdin_fd_);
    stdin_fd_ = -1;
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(timeout_s);
  auto pause = std::chrono::microseconds(200);
  while (running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &raw_status_, 0);
      reaped_ = true;
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(10)) pause *= 2;
  }
  if (feeder_.joinable()) feeder_.join();
  if (!result.timed_out) {
    if (WIFEXITED(raw_status_)) result.exit_code = WEXITSTATUS(raw_status_);
    if (WIFSIGNALED(raw_status_)) result.term_signal = WTERMSIG(raw_status_);
  }
  result.max_rss_kb = max_rss_kb_;
  result.out = read_all_from_start(out_fd_);
  result.err = read_all_from_start(err_fd_);
  return result;
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  Process child(argv, options);
  return child.wait(options.timeout_s);
}

std::vector<std::string> gsort_argv(const std::vector<std::string>& args) {
  // GSORT_TEST_GSORT runs the suite against another gsort (an installed
  // one, or a wrapper that injects a fault to prove a test can fail).
  const char* other = std::getenv("GSORT_TEST_GSORT");
  std::vector<std::string> argv = {other && *other ? other : GSORT_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> gsort_gen_argv(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {GSORT_GEN_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

ProcessResult run_gsort(const std::vector<std::string>& args, const ProcessOptions& options) {
  return run_process(gsort_argv(args), options);
}

ProcessResult run_gsort_on_pipe(const std::vector<std::string>& args, const std::string& input,
                                const std::vector<std::string>& env) {
  ProcessOptions p;
  p.env = {"LC_ALL=C"};
  p.env.insert(p.env.end(), env.begin(), env.end());
  p.stdin_kind = StdinKind::kPipe;
  p.stdin_data = input;
  return run_gsort(args, p);
}

ProcessResult run_gsort_gen(const std::vector<std::string>& args,
                            const ProcessOptions& options) {
  return run_process(gsort_gen_argv(args), options);
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    if (!line.empty()) line += ' ';
    if (!a.empty() && a.find_first_of(" \t\"'\\$*?;&|<>()") == std::string::npos) {
      line += a;
    } else {
      line += '\'';
      for (char c : a) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
  }
  return line;
}

pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

ProcessOptions c_locale(const std::string& stdin_data) {
  ProcessOptions p;
  p.env = {"LC_ALL=C"};
  if (!stdin_data.empty()) {
    p.stdin_kind = StdinKind::kPipe;
    p.stdin_data = stdin_data;
  }
  return p;
}

}  // namespace gsort_test
