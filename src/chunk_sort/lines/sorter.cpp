#include "src/chunk_sort/lines/sorter.h"

#include <utility>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/chunk_sort/lines/gpu/sort_gpu.h"
#endif

namespace gsort {

std::unique_ptr<LineSorter> make_line_sorter(const SortConfig& config, const LineSpec& spec, ThreadPool& pool,
                                             const Log& log, std::shared_ptr<DeviceBudget> budget) {
  if (config.backend == BackendChoice::kCpu) return make_cpu_line_sorter(spec, pool);
  const bool automatic = config.backend == BackendChoice::kAuto;
  const std::string option = config.backend == BackendChoice::kGpu      ? "--backend gpu: "
                             : config.backend == BackendChoice::kHybrid ? "--backend hybrid: "
                                                                        : "";
#if GSORT_HAVE_CUDA
  // Where the driver is installed, the device is started by the first
  // chunk that pays for its start (gpu/sort_gpu.h): a context takes a
  // third of a second, so small inputs stay on the CPU. Under auto, a
  // device that cannot start leaves the chunks on the CPU (an empty
  // failure prefix), and a host without a driver never tries.
  std::string why;
  if (!gpu_driver_installed(&why) && !(automatic && test_hooks::device_present && test_hooks::device_present())) {
    if (!automatic) throw DeviceError(option + why);
    log.info("lines are sorted on the CPU (" + why + ")");
    return make_cpu_line_sorter(spec, pool);
  }
  return make_gpu_line_sorter(spec, pool, config.device, std::move(budget), &log, option);
#else
  (void)budget;  // no device to take memory on
  if (automatic) return make_cpu_line_sorter(spec, pool);
  throw DeviceError(option + "this gsort was built without CUDA");
#endif
}

}  // namespace gsort
