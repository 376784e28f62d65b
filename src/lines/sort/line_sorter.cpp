#include "src/lines/sort/line_sorter.h"

#include "src/core/errors.h"

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/lines/sort/gpu/line_sort_gpu.h"
#endif

namespace gsort {

std::unique_ptr<LineSorter> make_line_sorter(const SortConfig& config, const LineSpec& spec, ThreadPool& pool,
                                             const Log& log) {
  if (config.backend == BackendChoice::kCpu) return make_cpu_line_sorter(spec, pool);
  const bool gpu_asked = config.backend == BackendChoice::kGpu || config.backend == BackendChoice::kHybrid;
  const std::string option = config.backend == BackendChoice::kGpu ? "--backend gpu: " : "--backend hybrid: ";
#if GSORT_HAVE_CUDA
  std::string why;
  if (gpu_usable(config.device, &why)) {
    // Asked for by name, the GPU sorts every chunk; under auto, only chunks
    // large enough to pay for the copies.
    const uint64_t min_lines = config.backend == BackendChoice::kAuto ? uint64_t{1} << 15 : 0;
    return make_gpu_line_sorter(spec, pool, config.device, config.gpu_memory, min_lines, &log);
  }
  if (gpu_asked) throw DeviceError(option + why);
  log.info(why + "; sorting lines on the CPU");
#else
  if (gpu_asked) throw DeviceError(option + "this gsort was built without CUDA");
  log.info("built without CUDA; sorting lines on the CPU");
#endif
  return make_cpu_line_sorter(spec, pool);
}

}  // namespace gsort
