// What a running process holds open, from /proc/PID/fd: gsort's run files
// have no name (io/temp/temp_dir.h), so a test sees them only this way.
#pragma once

#include <sys/types.h>

#include <string>

namespace gsort_test {

class Process;

// Descriptors of `pid` open on deleted or unnamed files under `dir`
// (their link reads "DIR/.../NAME (deleted)"): gsort's run files.
size_t unnamed_files_under(pid_t pid, const std::string& dir);

// Polls (bounded, every 2 ms) until `child` holds at least `want` run files
// under `dir`, or it ends. Returns whether it got there.
bool wait_for_run_files(const std::string& dir, size_t want, Process& child, double timeout_s);

}  // namespace gsort_test
