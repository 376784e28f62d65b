#include "io/temp/stale_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

namespace gsort {
namespace {

// Eight hex digits of the host's name (FNV-1a): enough to tell hosts apart.
std::string host_tag() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
  uint32_t h = 2166136261u;
  for (const char* c = name; *c; ++c) h = (h ^ static_cast<uint8_t>(*c)) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", h);
  return hex;
}

// The pid in "<host>-<pid>.", when <host> is ours; 0 otherwise.
pid_t our_host_pid(const std::string& rest) {
  static const std::string host = host_tag() + "-";
  if (rest.compare(0, host.size(), host) != 0) return 0;
  pid_t pid = 0;
  size_t i = host.size();
  for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && pid < 100000000; ++i) pid = pid * 10 + (rest[i] - '0');
  return i < rest.size() && rest[i] == '.' ? pid : 0;
}

bool gone(pid_t pid) { return pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

const std::string& process_tag() {
  static const std::string tag = host_tag() + "-" + std::to_string(::getpid());
  return tag;
}

int remove_stale_files(const std::string& directory, const std::string& prefix) {
  const int dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return 0;
  const int list_fd = ::dup(dir_fd);
  DIR* d = list_fd >= 0 ? ::fdopendir(list_fd) : nullptr;
  if (d == nullptr) {
    if (list_fd >= 0) ::close(list_fd);
    ::close(dir_fd);
    return 0;
  }
  std::vector<std::string> stale;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0 || !gone(our_host_pid(name.substr(prefix.size())))) continue;
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == ::geteuid()) {
      stale.push_back(name);
    }
  }
  ::closedir(d);
  int removed = 0;
  for (const std::string& name : stale) {
    if (::unlinkat(dir_fd, name.c_str(), 0) == 0) ++removed;
  }
  ::close(dir_fd);
  return removed;
}

}  // namespace gsort
