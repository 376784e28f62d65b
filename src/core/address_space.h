// What ulimit -v and -d (RLIMIT_AS, RLIMIT_DATA) leave this process to map:
// the default -S is a share of it, and an output is not mapped where its
// mapping would not fit.
#pragma once

#include <cstdint>

namespace gsort {

// How many more bytes this process may map under RLIMIT_AS and RLIMIT_DATA
// (the lesser), beyond what it has mapped now (VmSize, VmData) and the
// stacks of `threads` threads still to start; UINT64_MAX when neither is
// set.
uint64_t address_space_left(unsigned threads);

}  // namespace gsort
