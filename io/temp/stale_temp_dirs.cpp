#include "io/temp/stale_temp_dirs.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

namespace gsort {
namespace {

// The pid in "gsort.<pid>.XXXXXX", or 0 when the name is not of that form.
pid_t owner_pid(const std::string& name) {
  const std::string prefix = "gsort.";
  if (name.compare(0, prefix.size(), prefix) != 0) return 0;
  const size_t dot = name.find('.', prefix.size());
  if (dot == std::string::npos || dot == prefix.size() || name.size() - dot - 1 != 6) return 0;
  pid_t pid = 0;
  for (size_t i = prefix.size(); i < dot; ++i) {
    if (name[i] < '0' || name[i] > '9' || pid > 100000000) return 0;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid;
}

bool process_gone(pid_t pid) { return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH; }

// Removes the entries of the locked directory `dir` (open as dir_fd), then it.
bool remove_locked(const std::string& dir, int dir_fd) {
  std::vector<std::string> names;
  const int list_fd = ::dup(dir_fd);
  if (list_fd < 0) return false;
  DIR* d = ::fdopendir(list_fd);
  if (d == nullptr) {
    ::close(list_fd);
    return false;
  }
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  // Only files: a directory inside is not gsort's, and rmdir then fails.
  for (const std::string& name : names) ::unlinkat(dir_fd, name.c_str(), 0);
  return ::rmdir(dir.c_str()) == 0;
}

}  // namespace

int remove_stale_temp_dirs(const std::string& base) {
  DIR* d = ::opendir(base.empty() ? "/tmp" : base.c_str());
  if (d == nullptr) return 0;
  std::vector<std::string> candidates;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    const pid_t pid = owner_pid(name);
    if (pid > 0 && process_gone(pid)) candidates.push_back(name);
  }
  ::closedir(d);
  int removed = 0;
  for (const std::string& name : candidates) {
    const std::string dir = (base.empty() ? std::string("/tmp") : base) + "/" + name;
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    // Held: a live owner (in another pid namespace, say). Never touch it.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && remove_locked(dir, fd)) ++removed;
    ::close(fd);
  }
  return removed;
}

}  // namespace gsort
