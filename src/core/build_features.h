// What this build of gsort was compiled with, for --version and messages.
#pragma once

namespace gsort {

// Whether the distributed sort (mpirun -np N gsort) is in: CMake found MPI.
constexpr bool gsort_built_with_mpi() {
#ifdef GSORT_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace gsort
