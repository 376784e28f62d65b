#include "src/cli/memory_limit.h"

#include <fstream>
#include <sstream>

namespace gsort {
namespace {

// v1 reports "no limit" as a page-rounded INT64_MAX; anything past 2^60
// bytes is no limit.
constexpr uint64_t kNoLimitAbove = uint64_t{1} << 60;

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t parse_limit(const std::string& text) {
  if (text.empty() || text.compare(0, 3, "max") == 0) return 0;
  try {
    const uint64_t v = std::stoull(text);
    return v >= kNoLimitAbove ? 0 : v;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

uint64_t cgroup_memory_limit_from(const std::string& proc_self_cgroup,
                                  std::string (*read_file)(const std::string& path)) {
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "0::/path" (v2) or "N:memory:/path" (v1).
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    uint64_t limit = 0;
    if (controllers.empty()) {
      limit = parse_limit(read_file("/sys/fs/cgroup" + path + "/memory.max"));
      if (limit == 0) limit = parse_limit(read_file("/sys/fs/cgroup/memory.max"));  // a container's own root
    } else if (controllers.find("memory") != std::string::npos) {
      limit = parse_limit(read_file("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes"));
      if (limit == 0) limit = parse_limit(read_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
    }
    if (limit != 0) return limit;
  }
  return 0;
}

uint64_t cgroup_memory_limit() {
  return cgroup_memory_limit_from(read_whole_file("/proc/self/cgroup"), read_whole_file);
}

}  // namespace gsort
