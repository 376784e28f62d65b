#include "src/distributed/rank_input.h"

#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "io/input/input_set.h"
#include "io/temp/stale_temp_dirs.h"
#include "src/distributed/ranks/input_identity.h"
#include "src/distributed/ranks/option_fields.h"
#include "src/distributed/ranks/rank_agreement.h"
#include "src/distributed/refusals.h"

namespace gsort {
namespace {

std::vector<InputIdentity> identify_inputs(const ConcatenatedInputs& inputs, const std::vector<std::string>& names) {
  std::vector<InputIdentity> identities;
  for (size_t i = 0; i < inputs.file_count(); ++i) identities.push_back(identify_input(names[i], inputs.file(i)));
  return identities;
}

}  // namespace

namespace {

// What killed gsorts left in -T, as one process removes it whether or not
// it spills; before any rank of this run makes a directory there. Then
// the output's temporary file.
void prepare_output(RankContext& rank, DistributedOutput& output) {
  rank.fence.attempt([&] {
    remove_stale_temp_dirs(rank.config.temp_dir);
    output.prepare();
  });
  rank.fence.agree();
  output.share_destination();
}

}  // namespace

RankInput prepare_rank_input(RankContext& rank, DistributedOutput& output, RankStats& stats) {
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
  prepare_output(rank, output);
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

void prepare_rank0_inputs(RankContext& rank, DistributedOutput& output, const std::string& plan) {
  compare_with_rank0(rank.fence, rank.group, option_fields(rank.config));
  rank.fence.attempt([&] { refuse_unsupported_with_ranks(rank.config); });
  prepare_output(rank, output);
  rank.log.info("distributed: " + std::to_string(rank.group.size) + " ranks; rank 0 reads the inputs and " + plan);
}

bool inputs_only_rank0_reads(const RankGroup& group, const std::vector<std::string>& inputs) {
  std::string streamed = "0";
  if (group.rank == 0) {
    for (const std::string& name : inputs) {
      if (name == "-") streamed = "1";
      if (streamed == "1") break;
      try {
        struct stat st;
        if (::stat(name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
          streamed = "1";
        } else if (InputFile(name, 1).compressed()) {
          streamed = "1";
        }
      } catch (const std::exception&) {
        // Unreadable: the ranks' own opening says so.
      }
    }
  }
  broadcast_from_rank0(group, streamed);
  return streamed == "1";
}

}  // namespace gsort
