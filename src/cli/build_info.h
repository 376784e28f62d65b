// What this binary was built with, as --version prints it after its first
// line: GPU support (CUDA runtime and GPU architectures, and the devices the
// driver finds), MPI, zstd, Boost.
#pragma once

#include <string>

namespace gsort {

std::string build_info_text();

}  // namespace gsort
