#include "io/file/new_file_mode.h"

#include <sys/stat.h>

#include <fstream>
#include <string>

namespace gsort {
namespace {

bool umask_from_proc(mode_t* mask) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, 6, "Umask:") != 0) continue;
    try {
      *mask = static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

}  // namespace

mode_t new_file_mode() {
  mode_t mask = 0;
  if (!umask_from_proc(&mask)) {
    mask = ::umask(0);
    ::umask(mask);
  }
  return 0666 & ~mask & 0777;
}

}  // namespace gsort
