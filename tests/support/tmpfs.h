// A tmpfs mounted for one test (as root; elsewhere mounted() is false and
// error() says why), unmounted when the object goes away. Its free space is
// the test's alone, so statvfs shows exactly what a run left behind.
#pragma once

#include <string>

namespace gsort_test {

class Tmpfs {
 public:
  // Mounts a tmpfs of `size` (mount's syntax: "1m", "64m") on dir; with
  // type "ramfs", a ramfs (which has no size, and reports none) instead.
  Tmpfs(const std::string& dir, const std::string& size, const std::string& type = "tmpfs");
  ~Tmpfs();
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string dir_;
  bool mounted_ = false;
  std::string error_;
};

// Bytes in use on the file system holding path (statvfs), or -1.
long long used_bytes(const std::string& path);

}  // namespace gsort_test
