// The memory limit of this process's cgroup, when one is set: the default
// -S and -S N% are shares of it instead of MemTotal. Inside a container or
// a VM whose MemTotal grows as memory is used, the cgroup limit is the
// real ceiling.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// memory.max (cgroup v2) or memory.limit_in_bytes (v1) of this process's
// cgroup in bytes; 0 when none is set ("max", or v1's huge "unlimited").
uint64_t cgroup_memory_limit();

// The same, from the files' text: /proc/self/cgroup and a reader of a
// cgroup file by path ("" when absent). For tests.
uint64_t cgroup_memory_limit_from(const std::string& proc_self_cgroup,
                                  std::string (*read_file)(const std::string& path));

}  // namespace gsort
