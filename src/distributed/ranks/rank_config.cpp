#include "src/distributed/ranks/rank_config.h"

#include <algorithm>

#include "src/core/test_hooks.h"

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#endif

namespace gsort {
namespace {

// Rank k of a host takes device D+k; with more ranks on the host than it
// has GPUs, they take them in turn (4 ranks on 2 GPUs: 0 1 0 1). The count
// is asked only where a GPU may be used, so that CPU-only runs never start
// the CUDA driver.
int rank_device(const SortConfig& config, const RankGroup& group) {
  const int device = config.device + group.local_rank;
#if GSORT_HAVE_CUDA
  const bool may_use_gpu = config.backend != BackendChoice::kCpu || config.exchange == ExchangeChoice::kNccl;
  if (group.local_size > 1 && may_use_gpu) {
    const int count = cuda_device_count();
    if (count > 0) return device % count;
  }
#endif
  return device;
}

}  // namespace

SortConfig config_for_rank(SortConfig config, const RankGroup& group) {
  config.device = rank_device(config, group);
  return config;
}

SortConfig local_sort_config(const SortConfig& rank_config, const std::vector<std::string>& inputs) {
  SortConfig c = rank_config;
  c.mode = Mode::kSort;
  c.inputs = inputs;
  c.progress = ProgressMode::kOff;
  c.verbose = false;
  c.stats_path.clear();
  c.compress_output = false;
  c.fsync = false;
  c.output_parts = false;
  return c;
}

uint64_t rank_max_line(const SortConfig& rank_config) {
  return std::max<uint64_t>(rank_config.memory_bytes / 4, uint64_t{1} << 20);
}

const Log& local_sort_log() {
  // Quiet: rank 0 reports for all. A test hook (the measurements' tool too,
  // docs/benchmarks.md) lets every rank's local sort talk.
  static const Log log(test_rank_sort_log());
  return log;
}

}  // namespace gsort
