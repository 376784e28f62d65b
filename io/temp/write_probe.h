// How fast the temp directory's device takes writes that the page cache
// does not absorb: a few MiB written with O_DIRECT into an unnamed file
// there (a temp file of TempDir: it has no name, so nothing is left behind,
// even if gsort is killed meanwhile). Where O_DIRECT is refused, the same
// writes go through the page cache and are flushed with fdatasync. A
// directory on tmpfs or ramfs is memory: nothing is written.
#pragma once

#include <cstdint>
#include <string>

#include "io/file/file.h"

namespace gsort {

struct WriteSpeed {
  bool measured = false;     // false: the probe failed (`how` says why)
  bool in_memory = false;    // tmpfs or ramfs: writes go at memory speed
  double bytes_per_s = 0;
  std::string how;           // "O_DIRECT, 32 MiB", "fdatasync, 32 MiB", or the failure
};

// Whether the directory is on tmpfs or ramfs.
bool directory_in_memory(const std::string& dir);

// Writes `bytes` (a multiple of 1 MiB) into `file`, an empty file open for
// writing in the directory to measure, and leaves it empty again. Never
// throws: a failed write is reported in `how`.
WriteSpeed measure_write_speed(File& file, uint64_t bytes);

}  // namespace gsort
