#include "src/lines/sort/sorter.h"

#include <utility>

#include "src/core/errors.h"

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/lines/sort/gpu/sort_gpu.h"
#endif

namespace gsort {

std::unique_ptr<LineSorter> make_line_sorter(const SortConfig& config, const LineSpec& spec, ThreadPool& pool,
                                             const Log& log, std::shared_ptr<DeviceBudget> budget) {
  // Under auto, lines are sorted on the CPU: on the GPU machine its sorter
  // beat the GPU's on most data sets measured (docs/benchmarks.md), and it
  // starts no device (a GPU context costs more than sorting a small input).
  if (config.backend == BackendChoice::kCpu) return make_cpu_line_sorter(spec, pool);
  if (config.backend == BackendChoice::kAuto) {
    log.info("lines are sorted on the CPU (--backend gpu sorts them on the GPU)");
    return make_cpu_line_sorter(spec, pool);
  }
  const std::string option = config.backend == BackendChoice::kGpu ? "--backend gpu: " : "--backend hybrid: ";
#if GSORT_HAVE_CUDA
  // Where the driver is installed, the device is started by the first
  // chunk that pays for its start (gpu/sort_gpu.h): a context takes a
  // third of a second.
  std::string why;
  if (!gpu_driver_installed(&why)) throw DeviceError(option + why);
  return make_gpu_line_sorter(spec, pool, config.device, std::move(budget), &log, option);
#else
  (void)budget;  // no device to take memory on
  throw DeviceError(option + "this gsort was built without CUDA");
#endif
}

}  // namespace gsort
