#include "io/codec/compress_program.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "src/core/child_registry.h"
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

// Registers a child just started (src/core/child_registry.h); where the
// table is full, ends it and returns -1.
int registered(pid_t pid) {
  try {
    return register_child(pid);
  } catch (const Error&) {
    (void)::kill(pid, SIGKILL);  // ours and not reaped: cannot fail
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return -1;
  }
}

}  // namespace

size_t CompressProgram::compressors_for(unsigned threads) { return std::max(1u, threads); }

CompressProgram::CompressProgram(std::string program, size_t max_compressors)
    : program_(std::move(program)), max_compressors_(std::max<size_t>(1, max_compressors)) {
  ::signal(SIGCHLD, SIG_DFL);
}

CompressProgram::~CompressProgram() {
  std::vector<Child> left;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [child, entry] : children_) {
      if (entry.state == State::kRunning) left.push_back(child);
    }
  }
  for (const Child child : left) stop(child);
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

pid_t CompressProgram::spawn(bool decompress, int in, int out, int* slot, int* error) const {
  const std::string& path = resolved(error);
  if (path.empty()) return -1;
  if (::lseek(in, 0, SEEK_SET) < 0) {
    *error = errno;
    return -1;
  }
  posix_spawn_file_actions_t actions;
  if ((*error = posix_spawn_file_actions_init(&actions)) != 0) return -1;
  posix_spawnattr_t attributes;
  if ((*error = posix_spawnattr_init(&attributes)) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return -1;
  }
  pid_t pid = -1;
  if ((*error = posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO)) == 0 &&
      (*error = posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO)) == 0 &&
      (*error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK)) == 0) {
    std::string arg0 = path, arg1 = "-d";
    char* argv[] = {arg0.data(), decompress ? arg1.data() : nullptr, nullptr};
    // EAGAIN: the system is short of processes for now; a few tries, as sort makes.
    for (int tries = 0; tries < 4; ++tries) {
      {
        const ChildStart starting;  // may throw Interrupted: the process is ending anyway
        // The child's mask is the thread's outside the bracket, not the bracket's.
        if ((*error = posix_spawnattr_setsigmask(&attributes, &starting.mask())) != 0) break;
        *error = posix_spawn(&pid, path.c_str(), &actions, &attributes, argv, environ);
        if (*error == 0 && (*slot = registered(pid)) < 0) *error = EAGAIN;
      }
      if (*error != EAGAIN) break;
      ::usleep(250000u << tries);
    }
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return *error == 0 ? pid : -1;
}

CompressProgram::Child CompressProgram::start(bool decompress, int in, int out, int* error) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!decompress) make_room(lock);
  lock.unlock();
  pid_t pid = -1;
  int slot = -1;
  try {
    pid = spawn(decompress, in, out, &slot, error);
  } catch (...) {
    lock.lock();
    if (!decompress) --compressors_running_;
    changed_.notify_all();
    throw;
  }
  lock.lock();
  if (pid < 0) {
    if (!decompress) --compressors_running_;
    changed_.notify_all();
    return 0;
  }
  const Child child = next_child_++;
  children_[child] = Entry{pid, slot, !decompress, State::kRunning};
  if (!decompress) compressors_.push_back(child);
  return child;
}

void CompressProgram::make_room(std::unique_lock<std::mutex>& lock) {
  while (compressors_running_ >= max_compressors_) {
    if (compressors_.empty()) {
      changed_.wait(lock);  // each is being waited for by another thread
      continue;
    }
    const Child oldest = compressors_.front();
    lock.unlock();
    wait(oldest);
    lock.lock();
  }
  ++compressors_running_;
}

CompressProgram::Child CompressProgram::start_compressor(int from, int to, int* error) {
  return start(false, from, to, error);
}

CompressProgram::Child CompressProgram::start_decompressor(int from, int* read_end, int* error) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    *error = errno;
    return 0;
  }
  Child child = 0;
  try {
    child = start(true, from, fds[1], error);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[1]);
  if (child == 0) {
    ::close(fds[0]);
    return 0;
  }
  *read_end = fds[0];
  return child;
}

int CompressProgram::reap(pid_t pid, int slot) const {
  // Waited for without reaping first: while it is registered, its pid must
  // stay its own (a zombie's), which the handler may still kill harmlessly.
  siginfo_t info;
  int waited;
  do {
    waited = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT);
  } while (waited < 0 && errno == EINTR);
  const int wait_error = waited < 0 ? errno : 0;
  if (children_killed()) {
    for (;;) ::pause();  // the signal handler killed it, and ends the process
  }
  unregister_child(slot);
  int status = 0;
  pid_t got;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (wait_error != 0 || got < 0) {
    throw Error("waiting for " + quoted() + " [-d]: " + std::strerror(wait_error != 0 ? wait_error : errno));
  }
  return status;
}

void CompressProgram::failed() const { throw Error(quoted() + " [-d] terminated abnormally"); }

void CompressProgram::wait(Child child) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    const auto it = children_.find(child);
    if (it == children_.end()) return;  // waited for already: it exited with 0
    if (it->second.state == State::kFailed) failed();
    if (it->second.state == State::kRunning) break;
    changed_.wait(lock);  // another thread waits for it
  }
  Entry& entry = children_.at(child);  // stays in place while others come and go
  entry.state = State::kWaited;
  if (entry.compressor) compressors_.erase(std::find(compressors_.begin(), compressors_.end(), child));
  lock.unlock();
  bool ok = false;
  try {
    const int status = reap(entry.pid, entry.slot);
    ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  } catch (...) {
    lock.lock();
    entry.state = State::kFailed;
    if (entry.compressor) --compressors_running_;
    changed_.notify_all();
    throw;
  }
  lock.lock();
  if (entry.compressor) --compressors_running_;
  if (ok) {
    children_.erase(child);
  } else {
    entry.state = State::kFailed;
  }
  changed_.notify_all();
  if (!ok) failed();
}

void CompressProgram::stop(Child child) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto it = children_.find(child);
  if (it == children_.end() || it->second.state != State::kRunning) return;  // done, or being waited for
  Entry& entry = it->second;
  entry.state = State::kWaited;
  if (entry.compressor) compressors_.erase(std::find(compressors_.begin(), compressors_.end(), child));
  lock.unlock();
  // Not yet reaped, so still ours: ESRCH cannot come, nor EPERM.
  (void)::kill(entry.pid, SIGKILL);
  try {
    (void)reap(entry.pid, entry.slot);
  } catch (const Error&) {
    // Its exit says nothing: its output is not wanted.
  }
  lock.lock();
  if (entry.compressor) --compressors_running_;
  children_.erase(child);
  changed_.notify_all();
}

}  // namespace gsort
