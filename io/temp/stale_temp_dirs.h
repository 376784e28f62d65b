// Leftovers of dead gsort processes in a temporary directory: a gsort
// killed by SIGKILL leaves its empty gsort.<pid>.XXXXXX directory (its run
// files have no names, so the kernel freed them). The next gsort using the
// same directory removes such directories, and any named run files left
// in them on file systems without O_TMPFILE.
#pragma once

#include <string>

namespace gsort {

// Removes each gsort.<pid>.XXXXXX directory under `base` whose process is
// gone (kill(pid, 0) fails with ESRCH) and whose lock nobody holds (see
// TempDir). A live one, or anything else, is never touched. Best effort:
// errors are ignored. Returns how many were removed.
int remove_stale_temp_dirs(const std::string& base);

}  // namespace gsort
