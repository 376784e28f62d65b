// Step 1 of a distributed sort, records' or lines': the ranks agree on the
// request (the options they must share, the output, the inputs'
// identities), then the refusals, the inputs and the output's temporary
// file, before any work; every rank then knows where the output goes.
#pragma once

#include "src/distributed/output/distributed_output.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/input_views.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// The inputs every rank opened (as records of rank.config.record_size:
// lines as bytes), this rank's even share of them, and which ranks read
// them through one view.
struct RankInput {
  ConcatenatedInputs inputs;
  RecordRange slice;
  InputViews views;
};

// Collective; throws RanksFailed on every rank where any failed.
RankInput prepare_rank_input(RankContext& rank, DistributedOutput& output, RankStats& stats);

// The same where rank 0 alone reads the inputs (a sort of lines from
// standard input, a pipe or a compressed file): the options agreed, the
// refusals and the output, no input opened on the other ranks. `plan`
// ends -v's line: what rank 0 does with them.
void prepare_rank0_inputs(RankContext& rank, DistributedOutput& output, const std::string& plan);

// Collective: whether rank 0 finds an input that only it can read as it
// comes (standard input, not a regular file, or compressed), which the
// ranks cannot split by its size.
bool inputs_only_rank0_reads(const RankGroup& group, const std::vector<std::string>& inputs);

}  // namespace gsort
