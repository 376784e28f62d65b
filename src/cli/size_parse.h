// Sizes on the command line, as GNU sort reads -S: a number with an optional
// suffix b (bytes), K, M, G, T, P, E (powers of 1024) or % (of physical
// memory, also over 100%). A bare number means KiB, as in GNU sort.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// Throws UsageError naming `option` when text is not a size.
uint64_t parse_size(const std::string& text, const std::string& option);

// Memory this process may use, in bytes (0 if unknown): its cgroup's
// limit where one is set (memory_limit.h), else physical memory (MemTotal).
uint64_t physical_memory_bytes();

}  // namespace gsort
