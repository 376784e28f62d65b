#include "src/cli/build_info.h"

#include <boost/version.hpp>
#include <string>

#include "io/codec/compression.h"
#include "src/core/build_features.h"

#ifdef GSORT_HAVE_CUDA
#include <cuda_runtime_api.h>  // CUDART_VERSION
#endif

namespace gsort {
namespace {

// BOOST_LIB_VERSION is "1_83" (or "1_83_1"): print it as 1.83.
std::string boost_version() {
  std::string v = BOOST_LIB_VERSION;
  for (char& c : v) {
    if (c == '_') c = '.';
  }
  return v;
}

// What was built, then, in a CUDA build, what the driver finds here: a build
// with GPU support on a machine without a GPU sorts on the CPU.
std::string gpu_lines() {
#ifdef GSORT_HAVE_CUDA
  const int major = CUDART_VERSION / 1000, minor = CUDART_VERSION % 1000 / 10;
  // GSORT_CUDA_ARCHITECTURES comes from cmake/build_info.cmake.
  std::string lines = "GPU support: built (CUDA " + std::to_string(major) + "." + std::to_string(minor) +
                      "; GPU architectures " + GSORT_CUDA_ARCHITECTURES + ")\n";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) {
    (void)cudaGetLastError();
    devices = 0;
  }
  return lines + (devices > 0 ? "GPU devices: " + std::to_string(devices) + " found\n"
                              : std::string("GPU devices: none found (the CPU backend sorts)\n"));
#else
  return "GPU support: not built (built without CUDA; the CPU backend sorts)\n";
#endif
}

}  // namespace

std::string build_info_text() {
  const std::string mpi = gsort_built_with_mpi() ? "MPI: yes (mpirun -np N gsort sorts across N ranks)\n" : "MPI: no\n";
  const std::string nccl =
      gsort_built_with_nccl() ? "NCCL: yes (--exchange nccl; libnccl is loaded when it is used)\n" : "NCCL: no\n";
  return gpu_lines() + mpi + nccl + codec_versions() + ", Boost " + boost_version() + "\n";
}

}  // namespace gsort
