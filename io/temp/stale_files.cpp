#include "io/temp/stale_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "io/temp/process_gone.h"

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

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether `s` ends with ".XXXXXX", six letters or digits (mkstemp's, or
// the output temp's own).
bool ends_with_unique_suffix(const std::string& s) {
  if (s.size() < 7 || s[s.size() - 7] != '.') return false;
  for (size_t i = s.size() - 6; i < s.size(); ++i) {
    if (!is_alnum(s[i])) return false;
  }
  return true;
}

// A rank's part stem, [NAME.]rank-NNNNN: what may come between the tag and
// the suffix besides nothing (the output's temporary, a shared segment).
bool is_part_stem(const std::string& stem) {
  const size_t at = stem.rfind("rank-");
  if (at == std::string::npos || (at > 0 && stem[at - 1] != '.')) return false;
  const std::string digits = stem.substr(at + 5);
  return digits.size() >= 5 && std::all_of(digits.begin(), digits.end(), is_digit);
}

// The pid in "<host>-<pid>.[stem.]XXXXXX", the exact form of the names
// gsort makes, when <host> is ours; 0 for any other name.
pid_t our_host_pid(const std::string& rest) {
  static const std::string host = host_tag() + "-";
  if (rest.compare(0, host.size(), host) != 0 || !ends_with_unique_suffix(rest)) return 0;
  pid_t pid = 0;
  size_t i = host.size();
  for (; i < rest.size() && is_digit(rest[i]) && pid < 100000000; ++i) pid = pid * 10 + (rest[i] - '0');
  const size_t suffix_dot = rest.size() - 7;
  if (i == host.size() || i > suffix_dot || rest[i] != '.') return 0;
  if (i == suffix_dot) return pid;
  return is_part_stem(rest.substr(i + 1, suffix_dot - i - 1)) ? pid : 0;
}

// A mode gsort gives the files it names while it works: read and write
// bits only (mkstemp's 0600, or a new file's 0666 less the umask).
bool made_with_gsort_mode(mode_t mode) { return (mode & 07111) == 0; }

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
    if (name.compare(0, prefix.size(), prefix) != 0 || !process_gone(our_host_pid(name.substr(prefix.size())))) continue;
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == ::geteuid() && st.st_nlink == 1 && made_with_gsort_mode(st.st_mode)) {
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
