#include "backend/backend_factory.h"

#include "backend/cpu_backend.h"
#include "core/errors.h"
#if GSORT_HAVE_CUDA
#include "backend/gpu_backend.h"
#endif

namespace gsort {

std::unique_ptr<SortBackend> make_backend(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool,
                                          const Log& log) {
  if (config.backend == BackendChoice::kCpu) return make_cpu_backend(layout, pool);
#if GSORT_HAVE_CUDA
  std::string why;
  if (gpu_usable(config.device, &why)) {
    GpuOptions options;
    options.device = config.device;
    options.memory_cap = config.gpu_memory;
    options.host_threads = pool.size();
    try {
      return make_gpu_backend(layout, options);
    } catch (const Error& e) {
      if (config.backend == BackendChoice::kGpu) throw;
      why = e.what();
    }
  }
  if (config.backend == BackendChoice::kGpu) throw Error("--backend gpu: no usable GPU: " + why);
  log.info("no usable GPU (" + why + "); using the CPU backend");
#else
  if (config.backend == BackendChoice::kGpu) throw Error("--backend gpu: this gsort was built without CUDA");
  log.info("built without CUDA; using the CPU backend");
#endif
  return make_cpu_backend(layout, pool);
}

}  // namespace gsort
