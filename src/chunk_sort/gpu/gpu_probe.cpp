// gpu_usable: whether a CUDA device can be used, without ever crashing on a
// machine with no driver or no device (CI has neither).
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <string>

#include "kernels/kernel_image.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"

namespace gsort {
namespace {

bool fail(std::string* why, const std::string& text) {
  (void)cudaGetLastError();  // leave no error behind for later checks
  if (why) *why = text;
  return false;
}

std::string error_text(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// cudaErrorInsufficientDriver: the runtime's text ("CUDA driver version is
// insufficient for CUDA runtime version") is also what a machine without
// any NVIDIA driver, hence without a GPU, gets; the driver's version (0:
// none installed) tells the two apart.
std::string insufficient_driver_text() {
  int driver = 0, runtime = 0;
  (void)cudaDriverGetVersion(&driver);
  (void)cudaRuntimeGetVersion(&runtime);
  if (driver == 0) return "there is no GPU (no NVIDIA driver is installed)";
  return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) + ", older than the CUDA " +
         cuda_version_text(runtime) + " this gsort was built with (update the driver)";
}

}  // namespace

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

bool gpu_driver_installed(std::string* why) {
  // The kernel driver's files: asking the CUDA runtime loads libcuda, a
  // fifth of a second on the read's path of a sort that may stay on the CPU.
  if (::access("/dev/nvidiactl", F_OK) != 0 && ::access("/proc/driver/nvidia/version", F_OK) != 0) {
    return fail(why, "there is no GPU (no NVIDIA driver is installed)");
  }
  if (why) why->clear();
  return true;
}

bool gpu_usable(int device, std::string* why) {
  try {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
      return fail(why, "there is no GPU (the NVIDIA driver finds no CUDA device)");
    }
    if (e == cudaErrorInsufficientDriver) return fail(why, insufficient_driver_text());
    if (e != cudaSuccess) return fail(why, error_text("no usable CUDA driver", e));
    if (device < 0 || device >= count) {
      return fail(why, "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) + " present)");
    }
    if (const cudaError_t s = cudaSetDevice(device); s != cudaSuccess) {
      return fail(why, error_text("cannot select CUDA device", s));
    }
    if (const cudaError_t f = cudaFree(nullptr); f != cudaSuccess) {  // creates the context
      return fail(why, error_text("cannot initialise CUDA device", f));
    }
    cudaDeviceProp prop{};
    if (const cudaError_t p = cudaGetDeviceProperties(&prop, device); p != cudaSuccess) {
      return fail(why, error_text("cannot query CUDA device", p));
    }
    // The build chooses the architectures (CMAKE_CUDA_ARCHITECTURES): ask
    // the runtime whether the kernels have an image this device can run.
    if (const cudaError_t k = kernels::kernel_image_status(); k != cudaSuccess) {
      return fail(why, "CUDA device " + std::to_string(device) + " (" + prop.name + ") has compute capability " +
                           std::to_string(prop.major) + "." + std::to_string(prop.minor) +
                           "; this gsort's kernels were built for CUDA architectures " +
                           kernels::built_cuda_architectures() + " (" + cudaGetErrorName(k) +
                           "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(prop.major) +
                           std::to_string(prop.minor) + ")");
    }
    if (why) why->clear();
    return true;
  } catch (const std::exception& ex) {
    return fail(why, std::string("CUDA probe failed: ") + ex.what());
  } catch (...) {
    return fail(why, "CUDA probe failed");
  }
}

}  // namespace gsort
