// The mode a newly created file gets under the process's umask.
#pragma once

#include <sys/types.h>

namespace gsort {

// 0666 less the umask. Reads the umask without changing it (Linux'
// /proc/self/status), so that another thread creating a file meanwhile is
// not affected (gsort is also a library); falls back to umask(2) twice
// where /proc is not mounted.
mode_t new_file_mode();

}  // namespace gsort
