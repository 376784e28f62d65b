#include "tests/support/proc_fds.h"

#include <dirent.h>
#include <limits.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/support/process.h"

namespace gsort_test {

size_t unnamed_files_under(pid_t pid, const std::string& dir) {
  const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
  DIR* d = opendir(fds.c_str());
  if (d == nullptr) return 0;
  const std::string prefix = dir + "/";
  const std::string deleted = " (deleted)";
  size_t n = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    char target[PATH_MAX];
    const ssize_t len = readlink((fds + "/" + e->d_name).c_str(), target, sizeof target - 1);
    if (len <= 0) continue;
    const std::string t(target, static_cast<size_t>(len));
    if (t.compare(0, prefix.size(), prefix) == 0 && t.size() > deleted.size() &&
        t.compare(t.size() - deleted.size(), deleted.size(), deleted) == 0) {
      ++n;
    }
  }
  closedir(d);
  return n;
}

bool wait_for_run_files(const std::string& dir, size_t want, Process& child, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    if (unnamed_files_under(child.pid(), dir) >= want) return true;
    if (!child.running()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

}  // namespace gsort_test
