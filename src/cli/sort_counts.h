// The counts of GNU sort's --parallel and --batch-size, read as sort reads
// them (gnu_number.h: no unit letters) and refused in its words.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

// --parallel=N: at least 1; a number past 64 bits asks for as many as can
// be (options take at most what the host allows).
uint64_t parallel_threads(const std::string& text);

// --batch-size=N: at least 2, and at most the open-file limit less 3 (the
// standard streams), as sort allows.
uint64_t merge_batch_size(const std::string& text);

}  // namespace gsort
