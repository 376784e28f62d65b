#include "io/cache/page_cache_room.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gsort {
namespace {

constexpr uint64_t kNoLimitAbove = uint64_t{1} << 60;  // v1's "unlimited" is a huge number

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t number(const std::string& text) {
  try {
    return text.empty() || text.compare(0, 3, "max") == 0 ? 0 : std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

// The number after `key` at the start of a line ("MemAvailable:   123 kB",
// "file 4096"), times `unit`; 0 when absent.
uint64_t field(const std::string& text, const std::string& key, uint64_t unit) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.compare(0, key.size(), key) != 0) continue;
    std::istringstream rest(line.substr(key.size()));
    uint64_t value = 0;
    rest >> value;
    return value * unit;
  }
  return 0;
}

// A memory cgroup's limit less what it holds that is not page cache; 0
// where no limit is set.
uint64_t cgroup_room(std::string (*read_file)(const std::string&)) {
  std::istringstream lines(read_file("/proc/self/cgroup"));
  for (std::string line; std::getline(lines, line);) {
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    uint64_t limit = 0, used = 0, cache = 0;
    if (controllers.empty()) {
      const std::string dir = "/sys/fs/cgroup" + path + "/";
      limit = number(read_file(dir + "memory.max"));
      used = number(read_file(dir + "memory.current"));
      cache = field(read_file(dir + "memory.stat"), "file ", 1);
    } else if (controllers.find("memory") != std::string::npos) {
      const std::string dir = "/sys/fs/cgroup/memory" + path + "/";
      limit = number(read_file(dir + "memory.limit_in_bytes"));
      used = number(read_file(dir + "memory.usage_in_bytes"));
      cache = field(read_file(dir + "memory.stat"), "cache ", 1);
    } else {
      continue;
    }
    if (limit != 0 && limit < kNoLimitAbove) {
      const uint64_t other = used > cache ? used - cache : 0;
      return limit > other ? limit - other : 1;
    }
  }
  return 0;
}

// vm.dirty_bytes when set, else vm.dirty_ratio percent of `memory`.
uint64_t dirty_limit(std::string (*read_file)(const std::string&), const char* name, uint64_t memory,
                     uint64_t default_ratio) {
  const std::string base = std::string("/proc/sys/vm/") + name;
  const uint64_t bytes = number(read_file(base + "_bytes"));
  if (bytes != 0) return bytes;
  const std::string ratio_text = read_file(base + "_ratio");
  const uint64_t ratio = ratio_text.empty() ? default_ratio : number(ratio_text);
  return memory / 100 * ratio;
}

}  // namespace

PageCacheRoom page_cache_room_from(std::string (*read_file)(const std::string& path)) {
  PageCacheRoom room;
  const std::string meminfo = read_file("/proc/meminfo");
  room.memory_bytes = field(meminfo, "MemAvailable:", 1024);
  const uint64_t in_cgroup = cgroup_room(read_file);
  if (in_cgroup != 0 && (room.memory_bytes == 0 || in_cgroup < room.memory_bytes)) {
    room.memory_bytes = in_cgroup;
    room.cgroup = true;
  }
  const uint64_t hard = dirty_limit(read_file, "dirty", room.memory_bytes, 20);
  const uint64_t background = dirty_limit(read_file, "dirty_background", room.memory_bytes, 10);
  const uint64_t freerun = (hard + std::min(background, hard)) / 2;
  const uint64_t dirty = field(meminfo, "Dirty:", 1024) + field(meminfo, "Writeback:", 1024);
  room.bytes = freerun > dirty ? freerun - dirty : 0;
  return room;
}

PageCacheRoom page_cache_room() { return page_cache_room_from(read_whole_file); }

}  // namespace gsort
