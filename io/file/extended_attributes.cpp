#include "io/file/extended_attributes.h"

#include <sys/xattr.h>

#include <cerrno>
#include <vector>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// The attribute names of `path`, NUL-separated; empty where it has none or
// its file system keeps none.
std::vector<char> attribute_names(const std::string& path, const std::string& display) {
  for (;;) {
    const ssize_t size = ::listxattr(path.c_str(), nullptr, 0);
    if (size < 0 && (errno == ENOTSUP || errno == ENOENT)) return {};
    if (size < 0) throw IoError("cannot read the extended attributes of " + describe_errno(display, errno));
    std::vector<char> names(static_cast<size_t>(size));
    const ssize_t got = size == 0 ? 0 : ::listxattr(path.c_str(), names.data(), names.size());
    if (got >= 0) {
      names.resize(static_cast<size_t>(got));
      return names;
    }
    if (errno != ERANGE) throw IoError("cannot read the extended attributes of " + describe_errno(display, errno));
  }
}

// A value, or nothing when the attribute went meanwhile.
bool attribute_value(const std::string& path, const char* name, std::vector<char>& value, const std::string& display) {
  for (;;) {
    const ssize_t size = ::getxattr(path.c_str(), name, nullptr, 0);
    if (size < 0 && errno == ENODATA) return false;
    if (size < 0)
      throw IoError("cannot read the extended attribute " + std::string(name) + " of " +
                    describe_errno(display, errno));
    value.resize(static_cast<size_t>(size));
    const ssize_t got = size == 0 ? 0 : ::getxattr(path.c_str(), name, value.data(), value.size());
    if (got >= 0) {
      value.resize(static_cast<size_t>(got));
      return true;
    }
    if (errno != ERANGE)
      throw IoError("cannot read the extended attribute " + std::string(name) + " of " +
                    describe_errno(display, errno));
  }
}

// Namespaces that need a privilege to set: left where it is lacking.
bool privileged(const std::string& name) { return name.rfind("trusted.", 0) == 0 || name.rfind("security.", 0) == 0; }

}  // namespace

void copy_extended_attributes(const std::string& from, int to_fd, const std::string& display) {
  const std::vector<char> names = attribute_names(from, display);
  std::vector<char> value;
  for (size_t at = 0; at < names.size();) {
    const std::string name(names.data() + at);
    at += name.size() + 1;
    if (name.empty() || !attribute_value(from, name.c_str(), value, display)) continue;
    if (::fsetxattr(to_fd, name.c_str(), value.data(), value.size(), 0) == 0) continue;
    if (privileged(name) && (errno == EPERM || errno == EACCES || errno == ENOTSUP)) continue;
    throw IoError("cannot keep the extended attribute " + name + " of " + describe_errno(display, errno));
  }
}

}  // namespace gsort
