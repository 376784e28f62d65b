// Whether the process that named a temporary file or directory (its pid
// in the name) is gone, so that what it left may be removed.
#pragma once

#include <sys/types.h>

namespace gsort {

// True where `pid` (not this process's) no longer runs: no such process
// (kill(pid, 0) fails with ESRCH), or a zombie, dead with only its exit
// status left for a parent that has not waited yet (mpirun, killing a
// rank's peers, may return before it reaps them; the kernel has already
// closed a zombie's descriptors and dropped its locks).
bool process_gone(pid_t pid);

}  // namespace gsort
