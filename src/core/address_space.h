// What ulimit -v and -d (RLIMIT_AS, RLIMIT_DATA) leave this process to map:
// the default -S is a share of it, and an output is not mapped where its
// mapping would not fit.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// How many more bytes this process may map under RLIMIT_AS and RLIMIT_DATA
// (the lesser), beyond what it has mapped now (VmSize, VmData) and the
// stacks of `threads` threads still to start; UINT64_MAX when neither is
// set.
uint64_t address_space_left(unsigned threads);

// Under ulimit -v or -d, threads started from now on take little address
// space: small stacks (kLimitedThreadStackBytes), where each would be mapped
// at RLIMIT_STACK's size (8 MiB; 32 MiB where it is unlimited), and one
// malloc arena, where each thread's own arena reserves 64 MiB whenever it
// happens to fit (a race that failed a run now and then). No gsort thread
// recurses deeply. Without either limit, nothing changes.
void fit_threads_to_address_limits();

constexpr uint64_t kLimitedThreadStackBytes = uint64_t{2} << 20;

// RLIMIT_AS's soft value (ulimit -v); UINT64_MAX when unlimited.
uint64_t address_space_limit();

// A "Name:  N kB" figure of /proc/self/status ("VmHWM", "RssAnon", ...) in
// bytes; 0 when absent.
uint64_t process_status_bytes(const std::string& name);

}  // namespace gsort
