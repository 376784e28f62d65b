// How much newly written data the page cache takes at memory speed before
// the kernel throttles the writer to the pace of the device: the
// "freerun" point of its dirty-page throttling, halfway between the
// background and the hard dirty limits (vm.dirty_background_* and
// vm.dirty_*), less what is dirty already. The limits are shares of the
// memory that can hold page cache: MemAvailable, or, inside a memory
// cgroup with a limit (v2 memory.max, v1 memory.limit_in_bytes), that limit
// less what the cgroup holds that is not page cache, if that is less.
// An estimate, for deciding whether spilled runs reach the temp device.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

struct PageCacheRoom {
  uint64_t bytes = 0;        // written bytes absorbed before throttling
  uint64_t memory_bytes = 0;  // the memory the dirty limits are shares of
  bool cgroup = false;        // a memory cgroup's limit set memory_bytes
};

// From the running system (/proc, /sys/fs/cgroup).
PageCacheRoom page_cache_room();

// The same from the files' text, for tests: read_file(path) gives a file's
// contents, "" when absent.
PageCacheRoom page_cache_room_from(std::string (*read_file)(const std::string& path));

}  // namespace gsort
