// Leftovers of dead gsort processes in a temporary directory: a gsort
// killed by SIGKILL leaves its gsort.<pid>.XXXXXX directory (its run files
// have no names, so the kernel freed them). The next gsort using the same
// directory removes such directories, and any named run files left in them
// on file systems without O_TMPFILE.
//
// A shared -T (such as /tmp) holds other users' files too, and anyone may
// make a directory with a gsort-like name. So a directory is removed only
// when every sign says gsort made it for this user: it is a real directory
// (no link), owned by this user, mode 0700, holding gsort's marker file
// (kTempDirMarker, a regular file owned by this user), and nothing else
// but regular files of this user named as run files are (<stem>.<n>).
// Anything else leaves it untouched, as a whole.
#pragma once

#include <string>

namespace gsort {

// The marker TempDir writes into each directory it makes.
inline constexpr const char* kTempDirMarker = ".gsort-temp";

// Removes each gsort.<pid>.XXXXXX directory under `base` whose process is
// gone (process_gone.h: no such process, or a zombie), whose lock nobody holds (see
// TempDir), and that passes the checks above. Best effort: errors are
// ignored. Returns how many were removed.
int remove_stale_temp_dirs(const std::string& base);

}  // namespace gsort
