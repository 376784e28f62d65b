// Runs a program with its standard streams redirected, for black-box tests
// of gsort and gsort-gen.
#pragma once

#include <sys/types.h>

#include <string>
#include <thread>
#include <vector>

namespace gsort_test {

struct ProcessResult {
  int exit_code = -1;      // valid when the child exited on its own
  int term_signal = 0;     // the signal that killed it, 0 if none
  bool timed_out = false;  // it outlived the timeout and was SIGKILLed
  std::string out;         // stdout, bytes
  std::string err;         // stderr, text
  long max_rss_kb = 0;     // the child's peak resident set (getrusage, via wait4)

  bool exited() const { return !timed_out && term_signal == 0; }
  // "exit 2", "signal 15", "timed out": for assertion messages.
  std::string status() const;
};

enum class StdinKind {
  kNull,  // /dev/null
  kFile,  // the file at stdin_path
  kPipe,  // a pipe: stdin_data is written to it by a thread, then it is closed
          // (or, with Process, the caller may take the write end)
};

struct ProcessOptions {
  StdinKind stdin_kind = StdinKind::kNull;
  std::string stdin_path;
  std::string stdin_data;
  std::vector<std::string> env;  // NAME=VALUE, added to (or replacing in) ours
  double timeout_s = 120;        // for run_process
  // When > 0, the child runs with RLIMIT_NOFILE (soft and hard) at this
  // (through /bin/sh's ulimit -n, then exec: the pid is the program's).
  int open_file_limit = 0;
};

// A running child. stdout and stderr go to unlinked temp files, read back
// by wait(). SIGINT, SIGTERM, SIGPIPE are at their defaults in the child
// whatever the test runner has set; this process ignores SIGPIPE so that
// writing to a dead child's pipe fails with EPIPE instead.
class Process {
 public:
  Process(const std::vector<std::string>& argv, const ProcessOptions& options);
  ~Process();  // SIGKILLs and reaps a child still running
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }

  // The write end of a kPipe stdin that has no stdin_data; the caller
  // owns it from now on (and must close it). -1 otherwise.
  int take_stdin();

  void send_signal(int sig);
  // True while the child has not been reaped and has not exited.
  bool running();
  // Waits at most timeout_s (then SIGKILLs), reaps, collects the output.
  ProcessResult wait(double timeout_s);

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int raw_status_ = 0;
  long max_rss_kb_ = 0;
  int stdin_fd_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::thread feeder_;
};

// Runs argv to completion (argv[0] is a path) and returns what it did.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const ProcessOptions& options = {});

// Runs the built gsort (GSORT_BINARY, or $GSORT_TEST_GSORT when set) or
// gsort-gen (GSORT_GEN_BINARY) with args after the program name.
ProcessResult run_gsort(const std::vector<std::string>& args,
                        const ProcessOptions& options = {});
ProcessResult run_gsort_gen(const std::vector<std::string>& args,
                            const ProcessOptions& options = {});
// Options for a run in the C locale (LC_ALL=C), as GNU sort is compared;
// with `stdin_data`, fed that through a pipe.
ProcessOptions c_locale(const std::string& stdin_data = "");
// gsort in the C locale with `input` on a pipe (an empty pipe for ""), and
// `env` beside LC_ALL=C: as the ports of coreutils' sort tests run it.
ProcessResult run_gsort_on_pipe(const std::vector<std::string>& args, const std::string& input,
                                const std::vector<std::string>& env = {});
// The full argv those would run, for failure messages and Process.
std::vector<std::string> gsort_argv(const std::vector<std::string>& args);
std::vector<std::string> gsort_gen_argv(const std::vector<std::string>& args);

// argv joined with spaces, quoting arguments with shell-special characters,
// for failure messages.
std::string command_line(const std::vector<std::string>& argv);

// The pid of a process that has exited and been reaped: no process has it
// (until the kernel hands it out again), as with a killed gsort's.
pid_t dead_pid();

}  // namespace gsort_test
