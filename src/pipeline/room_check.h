// Before a sort starts: whether the file systems it will write have room
// for what it writes there, where that is known. The output needs the
// input's bytes (unless compressed: its size is not known); spilled runs
// need them too on -T (unless they may be compressed). On one file system
// the two need them once, not twice: the merge frees each run's part as it
// reads it. A 1 TB input with 77 GB free is refused at once, naming the
// figures, instead of failing hours later; --no-space-check starts anyway.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

struct RoomNeed {
  uint64_t output_bytes = 0;  // 0: unknown or nothing
  int output_fd = -1;         // the output's (temporary) file; -1: not a file
  std::string output_name;
  uint64_t run_bytes = 0;     // 0: no runs, or their size unknown
  std::string temp_dir;
};

// Throws IoError "not enough room: ..." where the need exceeds what is free.
// Where free space cannot be read, nothing is checked.
void check_room(const RoomNeed& need);

}  // namespace gsort
