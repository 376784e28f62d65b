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

// The directory part of path ("." when there is none).
std::string directory_of(const std::string& path);

}  // namespace gsort
