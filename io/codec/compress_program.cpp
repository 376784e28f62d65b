#include "io/codec/compress_program.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "src/core/errors.h"

extern char** environ;

namespace gsort {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// PROG with a slash as it is; else the first executable PATH/PROG (an
// empty PATH entry is the current directory).
std::string find_in_path(const std::string& program, int* error) {
  if (program.empty()) {
    *error = ENOENT;
    return "";
  }
  if (program.find('/') != std::string::npos) return program;
  const char* env = std::getenv("PATH");
  const std::string path = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
  size_t at = 0;
  for (;;) {
    const size_t colon = path.find(':', at);
    const std::string dir = path.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  *error = ENOENT;
  return "";
}

}  // namespace

CompressProgram::CompressProgram(std::string program) : program_(std::move(program)) {
  ::signal(SIGCHLD, SIG_DFL);
}

std::string CompressProgram::quoted() const {
  std::string q = "'";
  for (const char c : program_) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

const std::string& CompressProgram::resolved(int* error) const {
  std::call_once(resolve_once_, [this] { resolved_ = find_in_path(program_, &resolve_error_); });
  *error = resolve_error_;
  return resolved_;
}

pid_t CompressProgram::spawn(bool decompress, int in, int out, int* error) const {
  const std::string& path = resolved(error);
  if (path.empty()) return -1;
  if (::lseek(in, 0, SEEK_SET) < 0) {
    *error = errno;
    return -1;
  }
  posix_spawn_file_actions_t actions;
  if ((*error = posix_spawn_file_actions_init(&actions)) != 0) return -1;
  pid_t pid = -1;
  if ((*error = posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO)) == 0 &&
      (*error = posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO)) == 0) {
    std::string arg0 = path, arg1 = "-d";
    char* argv[] = {arg0.data(), decompress ? arg1.data() : nullptr, nullptr};
    // EAGAIN: the system is short of processes for now; a few tries, as sort makes.
    for (int tries = 0; tries < 4; ++tries) {
      *error = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv, environ);
      if (*error != EAGAIN) break;
      ::usleep(250000u << tries);
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  return *error == 0 ? pid : -1;
}

pid_t CompressProgram::start_compressor(int from, int to, int* error) const { return spawn(false, from, to, error); }

pid_t CompressProgram::start_decompressor(int from, int* read_end, int* error) const {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    *error = errno;
    return -1;
  }
  const pid_t pid = spawn(true, from, fds[1], error);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return -1;
  }
  *read_end = fds[0];
  return pid;
}

void CompressProgram::wait(pid_t pid) const {
  int status = 0;
  pid_t got;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (got < 0) throw Error("waiting for " + quoted() + " [-d]: " + std::string(std::strerror(errno)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw Error(quoted() + " [-d] terminated abnormally");
}

}  // namespace gsort
