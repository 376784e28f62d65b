// A replaced file's extended attributes (user.*, and its POSIX ACL, which
// Linux keeps as system.posix_acl_access) given to the file that replaces
// it, so that a sort with -o onto an existing file keeps them as writing
// into the file would.
#pragma once

#include <string>

namespace gsort {

// Copies every extended attribute of the file at `from` (links followed)
// onto the open file `to_fd`. Attributes this process may not set
// (trusted.*, security.* without the privilege) are left; a file system
// without extended attributes has none to copy. Throws IoError naming
// `display` when one that could be set is not.
void copy_extended_attributes(const std::string& from, int to_fd, const std::string& display);

}  // namespace gsort
