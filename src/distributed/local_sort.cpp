#include "src/distributed/local_sort.h"

#include "io/input_set.h"
#include "src/chunk_sort/backend_factory.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/distributed/rank_config.h"
#include "src/pipeline/external_sort.h"

namespace gsort {

SortReport sort_received(const SortConfig& rank_config, const KeyLayout& layout,
                         const std::vector<std::string>& received, const std::string& part) {
  const SortConfig config = local_sort_config(rank_config, received, part);
  const Log quiet(false);  // rank 0 reports for all ranks
  ThreadPool pool(config.threads);
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  std::unique_ptr<SortBackend> backend = make_backend(config, layout, pool, quiet, size_known, input_bytes);
  return external_sort(SortContext{config, layout, *backend, pool, quiet});
}

}  // namespace gsort
