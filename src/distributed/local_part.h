// A rank's sorted part while the run is under way: a hidden file made with
// mkstemp (DIR/.STEM.XXXXXX), registered for removal on a signal, and
// removed when the object goes away unless it was put in place.
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
  // Renames the part to `destination`; it is no longer removed.
  void put_in_place(const std::string& destination);

 private:
  std::string path_;
  int slot_ = -1;
};

}  // namespace gsort
