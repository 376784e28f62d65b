// A private directory for one gsort process's run files, made under -T's
// directory and removed (with everything in it) when the object goes away,
// or by the signal handler when the process is interrupted.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

class TempDir {
 public:
  // Creates <base>/gsort.XXXXXX. Throws IoError (naming base) on failure.
  explicit TempDir(const std::string& base);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

  // A new file name in the directory, registered for signal cleanup.
  // Returns the path; `slot` receives the registration to pass to remove().
  std::string new_file(const std::string& stem, int* slot);
  // Unlinks a file made by new_file (no error if it is already gone).
  void remove(const std::string& path, int slot);

 private:
  std::string path_;
  int slot_ = -1;
  uint64_t next_id_ = 0;
};

}  // namespace gsort
