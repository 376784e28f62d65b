#include "src/distributed/rank_config.h"

#include <algorithm>
#include <thread>

namespace gsort {

SortConfig config_for_rank(SortConfig config, const RankGroup& group) {
  const auto share = static_cast<uint64_t>(group.local_size);
  config.device += group.local_rank;
  if (config.memory_is_default) config.memory_bytes = std::max<uint64_t>(config.memory_bytes / share, 64ull << 20);
  // --parallel not given (or given as all cores): the host's cores are shared.
  if (config.threads == std::max(1u, std::thread::hardware_concurrency())) {
    config.threads = std::max(1u, config.threads / static_cast<unsigned>(share));
  }
  return config;
}

SortConfig local_sort_config(const SortConfig& rank_config, const std::vector<std::string>& inputs,
                             const std::string& part) {
  SortConfig c = rank_config;
  c.mode = Mode::kSort;
  c.inputs = inputs;
  c.output = part;
  c.progress = ProgressMode::kOff;
  c.verbose = false;
  c.stats_path.clear();
  c.compress_output = false;
  c.fsync = false;
  c.output_parts = false;
  return c;
}

}  // namespace gsort
