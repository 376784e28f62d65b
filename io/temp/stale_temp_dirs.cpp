#include "io/temp/stale_temp_dirs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "io/temp/process_gone.h"

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

// "<stem>.<n>": the name a run file has for an instant where the file
// system lacks O_TMPFILE (TempDir::create_file).
bool is_run_file_name(const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return false;
  for (size_t i = 0; i < dot; ++i) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || c == '_' || c == '-')) return false;
  }
  for (size_t i = dot + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

// A regular file (not a link) owned by us, in the directory open as dir_fd.
bool is_our_file(int dir_fd, const std::string& name) {
  struct stat st;
  return ::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
         st.st_uid == ::geteuid();
}

// The entries of the directory open as dir_fd, and whether reading them worked.
bool list_entries(int dir_fd, std::vector<std::string>* names) {
  const int list_fd = ::dup(dir_fd);
  if (list_fd < 0) return false;
  DIR* d = ::fdopendir(list_fd);
  if (d == nullptr) {
    ::close(list_fd);
    return false;
  }
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names->push_back(name);
  }
  ::closedir(d);
  return true;
}

// Whether the directory open as dir_fd is one gsort made for this user,
// holding nothing but its marker and run files of ours; `names` gets its
// entries.
bool is_ours(int dir_fd, std::vector<std::string>* names) {
  struct stat st;
  if (::fstat(dir_fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() ||
      (st.st_mode & 07777) != 0700) {
    return false;
  }
  if (!list_entries(dir_fd, names)) return false;
  bool marked = false;
  for (const std::string& name : *names) {
    if (name == kTempDirMarker) {
      marked = is_our_file(dir_fd, name);
    } else if (!is_run_file_name(name) || !is_our_file(dir_fd, name)) {
      return false;
    }
  }
  return marked;
}

}  // namespace

int remove_stale_temp_dirs(const std::string& base) {
  const std::string dir_of = base.empty() ? std::string("/tmp") : base;
  DIR* d = ::opendir(dir_of.c_str());
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
    const std::string dir = dir_of + "/" + name;
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    std::vector<std::string> names;
    // Held: a live owner (in another pid namespace, say). Never touch it.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && is_ours(fd, &names)) {
      for (const std::string& entry : names) ::unlinkat(fd, entry.c_str(), 0);
      if (::rmdir(dir.c_str()) == 0) ++removed;
    }
    ::close(fd);
  }
  return removed;
}

}  // namespace gsort
