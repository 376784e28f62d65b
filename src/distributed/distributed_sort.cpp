#include "src/distributed/distributed_sort.h"

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "io/temp/stale_temp_dirs.h"
#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"
#include "src/distributed/exchange/exchange_phase.h"
#include "src/distributed/local/local_sort_phase.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/output/rank_boundaries.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/partition/gpu_partition.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/partition/splitters.h"
#include "src/distributed/ranks/input_identity.h"
#include "src/distributed/ranks/input_views.h"
#include "src/distributed/ranks/option_fields.h"
#include "src/distributed/ranks/rank_agreement.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/distributed/refusals.h"

namespace gsort {
namespace {

// The inputs every rank opened, this rank's slice of them, and which ranks
// read them through one view.
struct RankInput {
  ConcatenatedInputs inputs;
  RecordRange slice;
  InputViews views;
};

std::vector<InputIdentity> identify_inputs(const ConcatenatedInputs& inputs, const std::vector<std::string>& names) {
  std::vector<InputIdentity> identities;
  for (size_t i = 0; i < inputs.file_count(); ++i) identities.push_back(identify_input(names[i], inputs.file(i)));
  return identities;
}

// Step 1: the ranks agree on the request (the options they must share, the
// output, the inputs' identities); then the refusals, the inputs and the
// output's temporary file, before any work; every rank then knows where the
// output goes.
RankInput prepare(RankContext& rank, DistributedOutput& output, RankStats& stats) {
  std::optional<RankInput> input;
  std::vector<InputIdentity> identities;
  compare_with_rank0(rank.fence, rank.group, option_fields(rank.config));
  rank.fence.attempt([&] {
    refuse_unsupported_with_ranks(rank.config);
    ConcatenatedInputs inputs(rank.config.inputs, rank.config.record_size);
    identities = identify_inputs(inputs, rank.config.inputs);
    const RecordRange slice = rank_slice(inputs.total_records(), rank.group.rank, rank.group.size);
    input.emplace(RankInput{std::move(inputs), slice, InputViews()});
    stats.slice_records = slice.size();
  });
  compare_with_rank0(rank.fence, rank.group, input_fields(identities));
  rank.fence.attempt([&] {
    // What killed gsorts left in -T, as one process removes it whether or
    // not it spills; before any rank of this run makes a directory there.
    remove_stale_temp_dirs(rank.config.temp_dir);
    output.prepare();
  });
  rank.fence.agree();
  output.share_destination();
  input->views = find_input_views(rank.group, identities);
  rank.log.info("distributed: " + std::to_string(rank.group.size) + " ranks, " +
                std::to_string(input->inputs.total_records()) + " records");
  rank.log.info(input->views.views() == 1
                    ? "inputs: every rank reads the same files on one host: their content is not compared"
                    : "inputs: read through " + std::to_string(input->views.views()) +
                          " views (hosts, or files under one name): each is hashed whole beside the sort and "
                          "compared before the commit");
  return std::move(*input);
}

// Step 8: rank 0 reports for all ranks, under -v and in --stats.
void report(const RankContext& rank, DistributedOutput& output, RankStats& stats, const Stopwatch& total) {
  stats.total_s = total.seconds();
  const std::vector<RankStats> all = gather_rank_stats(rank.group, stats);
  if (rank.group.rank != 0) return;
  for (const std::string& line : describe_rank_stats(all, rank.config.record_size)) rank.log.info(line);
  output.write_stats(rank_stats_json(all, rank.config.record_size, total.seconds()));
}

}  // namespace

void distributed_sort(const RankGroup& group, const SortConfig& config) {
  const Stopwatch total;
  RankContext rank(group, config);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  // The GPU's context is made beside the splitters, for the partition.
  std::thread warming([&rank] { warm_up_gpu(rank.config); });
  ScopedJoin join_warming(warming);
  const RankInput input = prepare(rank, output, stats);
  ContentCheck content(input.inputs, input.views, group.rank);
  const Splitters splitters = agree_on_splitters(rank, input.inputs, input.slice, stats);
  ReceivedRecords received =
      exchange_records(rank, ShuffleInput{input.inputs, input.slice, rank.layout, splitters}, stats);
  const uint64_t received_count = received.count;
  SortedPart sorted = sort_received_records(rank, std::move(received), output, stats);
  const bool drop_first = settle_boundaries(rank, sorted.ends, received_count, input.inputs.total_records());
  content.compare(rank);
  stats.output_records = sorted.records - (drop_first ? 1 : 0);
  const Stopwatch writing;
  output.write(rank.fence, sorted.part.get(), drop_first ? rank.layout.record_size() : 0, stats.output_records);
  stats.write_s = writing.seconds();
  report(rank, output, stats, total);
}

}  // namespace gsort
