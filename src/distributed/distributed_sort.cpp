#include "src/distributed/distributed_sort.h"

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"
#include "src/distributed/exchange/exchange_phase.h"
#include "src/distributed/exchange/streamed_records.h"
#include "src/distributed/distributed_lines.h"
#include "src/distributed/distributed_merge_lines.h"
#include "src/distributed/distributed_merge_records.h"
#include "src/distributed/local/local_sort_phase.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/output/rank_boundaries.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/partition/gpu_partition.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/partition/splitters.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/distributed/rank_input.h"
#include "src/distributed/record_rank_report.h"

namespace gsort {

void distributed_sort(const RankGroup& group, const SortConfig& config) {
  if (config.mode == Mode::kMerge) {
    config.lines.enabled ? distributed_merge_lines(group, config) : distributed_merge_records(group, config);
    return;
  }
  if (config.lines.enabled) {
    distributed_sort_lines(group, config);
    return;
  }
  const Stopwatch total;
  RankContext rank(group, config);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  // The GPU's context is made beside the splitters, for the partition.
  std::thread warming([&rank] { warm_up_gpu(rank.config); });
  ScopedJoin join_warming(warming);
  // Inputs every rank can split by their size, or that rank 0 alone reads as they come.
  std::optional<RankInput> input;
  std::optional<ContentCheck> content;
  std::optional<ReceivedRecords> received;
  uint64_t total_records = 0;
  if (inputs_only_rank0_reads(group, config.inputs)) {
    prepare_rank0_inputs(rank, output, "sends each record to the rank of its key range");
    received.emplace(stream_records_to_ranks(rank, config.inputs, stats, &total_records));
    rank.fence.agree();
  } else {
    input.emplace(prepare_rank_input(rank, output, stats));
    content.emplace(input->inputs, input->views, group.rank);
    const Splitters splitters = agree_on_splitters(rank, input->inputs, input->slice, stats);
    received.emplace(exchange_records(rank, ShuffleInput{input->inputs, input->slice, rank.layout, splitters}, stats));
    total_records = input->inputs.total_records();
  }
  const uint64_t received_count = received->count;
  SortedPart sorted = sort_received_records(rank, std::move(*received), output, stats);
  const bool drop_first = settle_boundaries(rank, sorted.ends, received_count, total_records);
  if (content) content->compare(rank);
  stats.output_records = sorted.records - (drop_first ? 1 : 0);
  const Stopwatch writing;
  output.write(rank.fence, sorted.part.get(), drop_first ? rank.layout.record_size() : 0, stats.output_records,
               rank.pool);
  stats.write_s = writing.seconds();
  report_record_ranks(rank, output, stats, total);
}

}  // namespace gsort
