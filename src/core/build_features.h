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

// Whether the NCCL exchange (--exchange nccl) is in: MPI, CUDA and nccl.h
// were found (libnccl itself is loaded when the exchange is used).
constexpr bool gsort_built_with_nccl() {
#ifdef GSORT_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

}  // namespace gsort
