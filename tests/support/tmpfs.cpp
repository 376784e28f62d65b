#include "tests/support/tmpfs.h"

#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

namespace gsort_test {

Tmpfs::Tmpfs(const std::string& dir, const std::string& size, const std::string& type) : dir_(dir) {
  const std::string options = type == "tmpfs" ? "size=" + size : "";
  mounted_ = mount(type.c_str(), dir.c_str(), type.c_str(), 0, options.c_str()) == 0;
  if (!mounted_) error_ = std::strerror(errno);
}

Tmpfs::~Tmpfs() {
  if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
}

long long used_bytes(const std::string& path) {
  struct statvfs st;
  if (statvfs(path.c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.f_blocks - st.f_bfree) * static_cast<long long>(st.f_frsize);
}

}  // namespace gsort_test
