// A rank's sorted part while the run is under way: a hidden name made
// with mkstemp (DIR/.gsort-<host>-<pid>.STEM.XXXXXX, io/temp/stale_files.h;
// the file itself is removed at once, the local sort writes it), registered for removal on a signal, and removed
// when the object goes away unless it was released.
#pragma once

#include <string>

namespace gsort {

class LocalPart {
 public:
  LocalPart(const std::string& directory, const std::string& stem);
  ~LocalPart();
  LocalPart(const LocalPart&) = delete;
  LocalPart& operator=(const LocalPart&) = delete;

  const std::string& path() const { return path_; }
  // Creates the file, empty, with a new file's mode (for writers that
  // open it rather than replace it).
  void create_empty();
  // The part went elsewhere under another name (io/output/output_parts.h's
  // PlacedPart): its name is no longer ours to remove.
  void release();

 private:
  std::string path_;
  int slot_ = -1;
};

}  // namespace gsort
