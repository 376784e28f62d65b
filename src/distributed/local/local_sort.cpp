#include "src/distributed/local/local_sort.h"

#include "io/input/input_set.h"
#include "src/chunk_sort/backend_factory.h"
#include "src/core/log.h"
#include "src/distributed/ranks/rank_config.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/sort_buffer.h"

namespace gsort {
SortReport sort_received(const SortConfig& rank_config, const KeyLayout& layout,
                         const std::vector<std::string>& received, const std::string& part, ThreadPool& pool,
                         const std::string& shown_as) {
  const SortConfig config = local_sort_config(rank_config, received);
  RunOptions run;
  run.output = part;
  run.output_shown_as = shown_as;
  // Read once and deleted after: punched out as read, so that the received
  // records leave the page cache as the runs made of them enter it,
  // instead of being written back to the disk under the runs' pressure
  // (docs/benchmarks.md, the streamed exchange).
  run.consume_inputs = true;
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  std::unique_ptr<SortBackend> backend = make_backend(config, layout, pool, local_sort_log(), size_known, input_bytes);
  return external_sort(SortContext{config, layout, *backend, pool, local_sort_log()}, run);
}

SortReport merge_sorted(const SortConfig& rank_config, const KeyLayout& layout, const std::vector<std::string>& sorted,
                        const std::string& part, ThreadPool& pool) {
  SortConfig config = local_sort_config(rank_config, sorted);
  config.mode = Mode::kMerge;
  RunOptions run;
  run.output = part;
  std::unique_ptr<SortBackend> backend = make_backend(config, layout, pool, local_sort_log(), false, 0);
  return external_sort(SortContext{config, layout, *backend, pool, local_sort_log()}, run);
}

std::unique_ptr<SortBackend> make_receive_backend(const SortConfig& rank_config, const KeyLayout& layout,
                                                  ThreadPool& pool, uint64_t records) {
  return make_backend(rank_config, layout, pool, local_sort_log(), true, records * layout.record_size());
}

SortReport sort_received_in_memory(const SortConfig& rank_config, const KeyLayout& layout, SortBackend& backend,
                                   ThreadPool& pool, uint8_t* records, uint64_t count, const std::string& part,
                                   const SortedBufferOutput& out) {
  const SortConfig config = local_sort_config(rank_config, {});
  SortedBufferOutput to = out;
  if (!to.sink) to.path = part;
  return sort_filled_buffer(SortContext{config, layout, backend, pool, local_sort_log()}, records, count, to);
}

}  // namespace gsort
