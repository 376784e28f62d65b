#include "src/lines/sort/sorter.h"

#include "src/core/errors.h"

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/lines/sort/gpu/sort_gpu.h"
#endif

namespace gsort {

std::unique_ptr<LineSorter> make_line_sorter(const SortConfig& config, const LineSpec& spec, ThreadPool& pool,
                                             const Log& log) {
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
  std::string why;
  if (!gpu_usable(config.device, &why)) throw DeviceError(option + why);
  // The GPU makes the first key's image: -g and -R take the host's
  // strtold and MD5, and -V has none.
  if (host_only_order(spec.image().key)) {
    log.info(option + "the first key orders by -g, -R or -V, which the CPU sorts; lines are sorted on the CPU");
    return make_cpu_line_sorter(spec, pool);
  }
  return make_gpu_line_sorter(spec, pool, config.device, config.gpu_memory, &log);
#else
  throw DeviceError(option + "this gsort was built without CUDA");
#endif
}

}  // namespace gsort
