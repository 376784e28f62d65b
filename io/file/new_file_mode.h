// The mode a newly created file gets under the process's umask.
#pragma once

#include <sys/stat.h>

#include <string>

#include <sys/types.h>

namespace gsort {

// 0666 less the umask. Reads the umask without changing it (Linux'
// /proc/self/status), so that another thread creating a file meanwhile is
// not affected (gsort is also a library); falls back to umask(2) twice
// where /proc is not mounted.
mode_t new_file_mode();

// Gives the new file open as `fd` the mode, owner and group of the file it
// replaces (`replaced`; null: a new file's mode), as far as this process
// may set them (root; the group where it is a member). Bits that would
// grant more than before are dropped: set-user-ID when the owner changed,
// group and set-group-ID bits when the group did. Throws IoError naming
// `display` when the mode cannot be set.
void take_mode_and_owner(int fd, const struct stat* replaced, const std::string& display);

}  // namespace gsort
