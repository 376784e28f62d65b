#include "src/cuda/check.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace gsort::cuda {
namespace {

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

}  // namespace

void throw_error(cudaError_t code, const char* call, const char* file, int line) {
  // Clears the runtime's last error so that it does not resurface in a later,
  // unrelated check (sticky errors stay anyway).
  (void)cudaGetLastError();
  const std::string what = std::string("CUDA error ") + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                           ") in " + call + " at " + base_name(file) + ":" + std::to_string(line);
  if (code == cudaErrorMemoryAllocation) throw DeviceOutOfMemory(what);
  throw CudaError(what, code);
}

void report_in_destructor(cudaError_t code, const char* call, const char* file, int line) noexcept {
  if (code == cudaSuccess || code == cudaErrorCudartUnloading) return;
  std::fprintf(stderr, "gsort: warning: CUDA error %s in %s at %s:%d (while releasing)\n", cudaGetErrorName(code), call,
               base_name(file), line);
}

}  // namespace gsort::cuda
