#include "src/chunk_sort/backend_factory.h"

#include <algorithm>

#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/chunk_sort/hybrid/hybrid_backend.h"
#include "src/chunk_sort/starting_backend.h"
#include "src/core/address_space.h"
#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/core/test_hooks.h"
#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#endif

namespace gsort {

#if GSORT_HAVE_CUDA
namespace {

// auto: the kernel benchmark (docs/benchmarks.md) has CUB's radix sort
// fastest for every key width from ~16K keys up, and gsort's rank sort
// fastest below ~8K. GpuSortAlgorithm::kAuto takes CUB, except for 64-bit
// passes of up to 512 keys, which the rank sort's one-block path sorts
// without scratch (kernels/key_sort.cu).
GpuSortAlgorithm gpu_algorithm(AlgorithmChoice choice) {
  switch (choice) {
    case AlgorithmChoice::kRadix: return GpuSortAlgorithm::kRadix;
    case AlgorithmChoice::kMerge: return GpuSortAlgorithm::kMerge;
    case AlgorithmChoice::kCub: return GpuSortAlgorithm::kCub;
    case AlgorithmChoice::kAuto: break;
  }
  return GpuSortAlgorithm::kAuto;
}

// What auto's choice is made from, in a build with CUDA (backend_decision.h).
BackendFacts auto_facts(const SortConfig& config, bool size_known, uint64_t input_bytes, uint32_t record_size,
                        unsigned threads) {
  BackendFacts facts;
  facts.size_known = size_known;
  facts.input_bytes = input_bytes;
  facts.record_size = record_size;
  facts.threads = threads;
  facts.memory_budget = config.memory_bytes;
  facts.built_with_cuda = true;
  facts.driver_installed = gpu_driver_installed(nullptr) || (test_hooks::device_present && test_hooks::device_present());
  if (const uint64_t as = address_space_limit(); as != UINT64_MAX) facts.address_space_limit = as;
  return facts;
}

}  // namespace
#endif

std::unique_ptr<HostPin> pin_for_backend(const SortConfig& config, uint32_t record_size, unsigned threads,
                                         uint64_t input_bytes, void* p, size_t bytes) {
#if GSORT_HAVE_CUDA
  if (config.backend == BackendChoice::kCpu) return nullptr;
  if (config.backend == BackendChoice::kAuto &&
      decide_backend(auto_facts(config, true, input_bytes, record_size, threads)).pick == BackendPick::kCpu) {
    return nullptr;
  }
  return pin_host_for_device(config.device, p, bytes);
#else
  (void)config, (void)record_size, (void)threads, (void)input_bytes, (void)p, (void)bytes;
  return nullptr;
#endif
}

namespace {

// A GPU (or hybrid) backend as --backend asks, or for auto the CPU backend
// where no GPU can be used (saying why under -v).
std::unique_ptr<SortBackend> start_gpu_backend(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool,
                                               const Log& log, bool size_known, uint64_t input_bytes) {
#if GSORT_HAVE_CUDA
  std::string why;
  bool faked_failure = false;  // a test's device that failed to start, as a real one would here
  try {
    if (test_hooks::device_start) test_hooks::device_start();
  } catch (const Error& e) {
    if (config.backend != BackendChoice::kAuto) throw;
    why = e.what();
    faked_failure = true;
  }
  const double asked = process_seconds();
  if (!faked_failure && gpu_usable(config.device, &why)) {
    const double usable = process_seconds();
    GpuOptions options;
    options.device = config.device;
    options.memory_cap = config.gpu_memory;
    options.algorithm = gpu_algorithm(config.algorithm);
    options.input_bytes_hint = size_known ? std::max<uint64_t>(input_bytes, 1) : 0;
    try {
      if (config.backend == BackendChoice::kHybrid) {
        return make_hybrid_backend(layout, pool, make_cpu_backend(layout, pool), [&](ThreadPool& gpu_pool) {
          return make_gpu_backend(layout, options, gpu_pool);
        });
      }
      std::unique_ptr<SortBackend> gpu = make_gpu_backend(layout, options, pool);
      // Where a start's time goes: the driver and the device's context, then
      // the backend's device and pinned memory.
      log.info("backend start: device usable in " + seconds_text(usable - asked) + ", its memory held in " +
               seconds_text(process_seconds() - usable));
      return gpu;
    } catch (const Error& e) {
      if (config.backend != BackendChoice::kAuto) throw;
      why = e.what();
    }
  }
  if (config.backend == BackendChoice::kGpu || config.backend == BackendChoice::kHybrid) {
    throw DeviceError("--backend " + std::string(config.backend == BackendChoice::kGpu ? "gpu" : "hybrid") + ": " +
                      why);
  }
  log.info(why + "; using the CPU backend");
#else
  (void)size_known;  // no GPU start-up to weigh against the input's size
  (void)input_bytes;
  if (config.backend == BackendChoice::kGpu || config.backend == BackendChoice::kHybrid) {
    throw DeviceError("--backend " + std::string(config.backend == BackendChoice::kGpu ? "gpu" : "hybrid") +
                      ": this gsort was built without CUDA");
  }
  log.info("built without CUDA; using the CPU backend");
#endif
  return make_cpu_backend(layout, pool);
}

}  // namespace

std::unique_ptr<SortBackend> make_backend(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool,
                                          const Log& log, bool size_known, uint64_t input_bytes,
                                          BackendStart when, bool input_cached) {
  if (config.backend == BackendChoice::kCpu) return make_cpu_backend(layout, pool);
#if GSORT_HAVE_CUDA
  // Only a build with a GPU backend has a GPU start-up to weigh
  // (backend_decision.h): no driver, or a small input, is the CPU's at once.
  if (config.backend == BackendChoice::kAuto) {
    BackendFacts facts =
        auto_facts(config, size_known, input_bytes, layout.record_size(), static_cast<unsigned>(pool.size()));
    facts.input_cached = input_cached;
    const BackendDecision decision = decide_backend(facts);
    if (decision.pick == BackendPick::kCpu) {
      log.info(decision.why);
      return make_cpu_backend(layout, pool);
    }
  }
  if (when == BackendStart::kInBackground && config.backend != BackendChoice::kHybrid) {
    // auto may end on the CPU backend: plan for the larger of the two needs.
    const uint64_t host_bytes =
        config.backend == BackendChoice::kAuto ? make_cpu_backend(layout, pool)->host_bytes_per_record() : 0;
    // The start may outlive the run that began it (auto sorted a stream on
    // the CPU first: StartingBackend::sorted_without_start): it owns what it
    // reads; the pool must outlive the StartingBackend.
    auto start = [config, layout, &pool, log, size_known, input_bytes] {
      const double begun = process_seconds();
      std::unique_ptr<SortBackend> b = start_gpu_backend(config, layout, pool, log, size_known, input_bytes);
      log.info("backend: " + b->describe() + ", ready in " + seconds_text(process_seconds() - begun) +
               " (started while the input is read)");
      return b;
    };
    // A stream that ends within its first chunk is weighed as a file of its
    // size would have been: the GPU's start is hidden behind the pipe's read,
    // but not its copies from pageable memory.
    StartingBackend::WholeInputChoice whole_input;
    if (config.backend == BackendChoice::kAuto && !size_known) {
      whole_input = [&layout, &pool, &log](uint64_t count) -> std::unique_ptr<SortBackend> {
        const uint64_t bytes = count * layout.record_size();
        if (!cpu_is_faster_for(bytes, layout.record_size(), pool.size())) return nullptr;
        log.info("a stream of at most " + std::to_string(bytes) +
                 " bytes in one chunk: the CPU backend sorts it faster than the GPU");
        return make_cpu_backend(layout, pool);
      };
    }
    return std::make_unique<StartingBackend>(start, host_bytes, pool, size_known, std::move(whole_input));
  }
#else
  (void)when;
#endif
  return start_gpu_backend(config, layout, pool, log, size_known, input_bytes);
}

}  // namespace gsort
