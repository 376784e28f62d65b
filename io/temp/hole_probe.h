// Whether a directory's file system frees what a file's punched holes held
// (fallocate's FALLOC_FL_PUNCH_HOLE): the merge frees the runs it reads
// that way, so the room a merge needs depends on it (src/pipeline/room_check.h).
#pragma once

#include <string>

namespace gsort {

// Punches a hole in a sparse, unnamed file made in `dir` (O_TMPFILE: nothing
// is left behind, and no space is taken). False where the file system
// refuses, or where no such file can be made there.
bool directory_punches_holes(const std::string& dir);

}  // namespace gsort
