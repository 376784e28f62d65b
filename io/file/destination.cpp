#include "io/file/destination.h"

#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr int kMaxLinkHops = 40;  // Linux's own limit before ELOOP

[[noreturn]] void fail(const std::string& role, const std::string& path, int err) {
  throw IoError("cannot write " + role + " " + describe_errno(path, err));
}

// The content of the symbolic link at path, relative to the link's directory.
std::string read_link(const std::string& path, const std::string& role) {
  std::vector<char> buf(PATH_MAX + 1);
  const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
  if (n < 0) fail(role, path, errno);
  if (static_cast<size_t>(n) >= buf.size()) fail(role, path, ENAMETOOLONG);
  const std::string link(buf.data(), static_cast<size_t>(n));
  if (!link.empty() && link[0] == '/') return link;
  return directory_of(path) + "/" + link;
}

// A chain of links that ends nowhere: the path the last one names.
std::string follow_dangling(const std::string& path, const std::string& role) {
  std::string at = path;
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    struct stat st;
    if (::lstat(at.c_str(), &st) != 0) {
      if (errno == ENOENT) return at;
      fail(role, path, errno);
    }
    if (!S_ISLNK(st.st_mode)) return at;  // appeared meanwhile: replace it
    at = read_link(at, role);
  }
  fail(role, path, ELOOP);
}

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Whether `path` names an entry of a /proc/<pid>/fd directory (its directory
// resolved, so /dev/fd and /proc/self count), and which.
DescriptorName match_descriptor(const std::string& path) {
  DescriptorName d;
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || !all_digits(path.substr(slash + 1))) return d;
  std::vector<char> dir(PATH_MAX + 1);
  if (::realpath(directory_of(path).c_str(), dir.data()) == nullptr) return d;
  const std::string resolved = dir.data();
  static const std::string proc = "/proc/";
  if (resolved.compare(0, proc.size(), proc) != 0) return d;
  const size_t pid_end = resolved.find('/', proc.size());
  if (pid_end == std::string::npos) return d;
  const std::string pid = resolved.substr(proc.size(), pid_end - proc.size());
  const std::string rest = resolved.substr(pid_end);
  const bool fd_dir = rest == "/fd" || (rest.compare(0, 6, "/task/") == 0 && rest.size() > 9 &&
                                         rest.compare(rest.size() - 3, 3, "/fd") == 0);
  if (!all_digits(pid) || !fd_dir) return d;
  d.found = true;
  d.own = std::stol(pid) == static_cast<long>(::getpid());
  d.fd = std::stoi(path.substr(slash + 1));
  return d;
}

}  // namespace

DescriptorName descriptor_behind(const std::string& path) {
  std::string at = path;
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    const DescriptorName d = match_descriptor(at);
    if (d.found) return d;
    struct stat st;
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return DescriptorName{};
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t n = ::readlink(at.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<size_t>(n) >= buf.size()) return DescriptorName{};
    const std::string link(buf.data(), static_cast<size_t>(n));
    at = !link.empty() && link[0] == '/' ? link : directory_of(at) + "/" + link;
  }
  return DescriptorName{};
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Destination resolve_destination(const std::string& path, const std::string& role) {
  Destination d;
  if (::stat(path.c_str(), &d.status) == 0) {
    d.exists = true;
    d.target = path;
    std::vector<char> resolved(PATH_MAX + 1);
    if (::realpath(path.c_str(), resolved.data()) != nullptr) d.target = resolved.data();
    return d;
  }
  if (errno != ENOENT) fail(role, path, errno);  // ELOOP: "Too many levels of symbolic links"
  d.target = follow_dangling(path, role);
  return d;
}

}  // namespace gsort
