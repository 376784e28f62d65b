// Files a gsort names beside other people's files (the temporary output
// next to its destination, a rank's part, the shared-memory exchange's
// segment in /dev/shm) carry their maker: PREFIX<host>-<pid>.REST, where
// <host> is a short tag of this host's name, and REST is exactly what gsort
// puts there: six letters or digits (XXXXXX), or a rank's part stem and
// them ([NAME.]rank-NNNNN.XXXXXX). A process killed by SIGKILL leaves such
// a file behind; the next gsort removes it when every sign says it is a
// dead gsort's of this user: a name of that exact form, made on this host
// by a process that is gone, a regular file with one link that this user
// owns, with read and write bits only (the modes gsort gives such files).
// A file of another host is never judged: its pid means nothing here.
#pragma once

#include <string>

namespace gsort {

// "<host>-<pid>" for this process.
const std::string& process_tag();

// Removes the stale files in `directory` whose names start with `prefix`
// followed by a tag (see above). Best effort: errors are ignored. Returns
// how many were removed.
int remove_stale_files(const std::string& directory, const std::string& prefix);

// Where the distributed sort's shared-memory exchange makes its segment,
// and the start of the segment's name; every gsort removes such segments
// that killed ranks left (remove_stale_files), since the next gsort on a
// host need not be a distributed one.
inline constexpr const char* kSharedSegmentDir = "/dev/shm";
inline constexpr const char* kSharedSegmentPrefix = "gsort-shm.";

}  // namespace gsort
