// Where a destination path (-o FILE, --stats FILE) really points. Symbolic
// links are followed, also dangling ones: the file is then created where
// the last link points, and the links are kept. A loop of links is an error.
#pragma once

#include <sys/stat.h>

#include <string>

namespace gsort {

struct Destination {
  std::string target;    // the path the new file is renamed onto (links followed)
  bool exists = false;   // target exists (then `status` is its stat)
  struct stat status {};
};

// Throws IoError "cannot write <role> <path>: <why>" when the links loop, run
// too deep, or cannot be read.
Destination resolve_destination(const std::string& path, const std::string& role);

// A destination that stands for an open descriptor: /dev/stdout,
// /dev/fd/N, /proc/<pid>/fd/N (self, thread-self and task/<tid> too), or
// a chain of links that reaches one. Such a name must be written through,
// never renamed over: the rename would replace the link, not reach the
// file behind the descriptor.
struct DescriptorName {
  bool found = false;
  bool own = false;  // one of this process's descriptors: `fd`
  int fd = -1;
};
DescriptorName descriptor_behind(const std::string& path);

// The directory part of path ("." when there is none).
std::string directory_of(const std::string& path);

}  // namespace gsort
