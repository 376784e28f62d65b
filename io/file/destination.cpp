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

}  // namespace

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
