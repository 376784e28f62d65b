// A private directory for one gsort process's run files, made under -T's
// directory as gsort.<pid>.XXXXXX and removed when the object goes away, or
// by the signal handler when the process is interrupted.
//
// It holds a marker file (io/temp/stale_temp_dirs.h). Run files have no
// name in it: each is an O_TMPFILE (or, where the file
// system lacks that, a file unlinked as soon as it is created), used
// through its open descriptor. So the directory stays empty, and a gsort
// killed by SIGKILL leaves nothing that takes space: the kernel frees the
// files with the process. What it does leave, the empty directory, is
// removed by the next gsort (remove_stale_temp_dirs). The directory is
// flock()ed while its owner lives, so a live one is never touched.
#pragma once

#include <cstdint>
#include <string>

#include "io/file/file.h"

namespace gsort {

// A temporary file: an open read-write descriptor whose path() is the name
// it goes by in messages (<dir>/run.3). `named` only where neither
// O_TMPFILE nor unlinking worked: then the name exists, registered for
// signal cleanup, until TempDir::remove.
struct TempFile {
  File file;
  bool named = false;
  int slot = -1;
};

class TempDir {
 public:
  // Creates <base>/gsort.<pid>.XXXXXX and locks it. Throws IoError (naming
  // base) on failure.
  explicit TempDir(const std::string& base);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

  // A new, empty file (see TempFile), called <stem>.<n> in messages; n
  // counts up from 0 over the directory's files. `number` receives n.
  TempFile create_file(const std::string& stem, uint64_t* number);
  // Closes the file, and unlinks it if it has a name.
  void remove(TempFile& file);

 private:
  std::string path_;
  int slot_ = -1;
  int marker_slot_ = -1;  // the marker file's (stale_temp_dirs.h)
  int lock_fd_ = -1;  // the directory, flock()ed while this process lives
  uint64_t next_id_ = 0;
};

}  // namespace gsort
