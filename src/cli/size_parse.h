// Sizes on the command line, read as GNU sort reads -S (gnu_number.h): a
// number with an optional unit K, M, G, T, P, E, Z, Y, R, Q (powers of
// 1024; k m g t too), b (bytes) or % (of memory, also over 100%), or a
// unit alone (K is 1K). A bare number means KiB, as in GNU sort.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// Throws UsageError in sort's words, naming `option` as the user named it
// ("-S", "--buffer-size"), when text is not a size or is too large.
uint64_t parse_size(const std::string& text, const std::string& option);

// Memory this process may use, in bytes (0 if unknown): its cgroup's
// limit where one is set (memory_limit.h), else physical memory (MemTotal).
uint64_t physical_memory_bytes();

}  // namespace gsort
