#include "src/distributed/merge_on_rank0.h"

#include <memory>

#include "src/distributed/output/local_part.h"
#include "src/distributed/rank_input.h"

namespace gsort {

void merge_on_rank0(RankContext& rank, DistributedOutput& output, RankStats& stats,
                    const std::function<uint64_t(const std::string& part)>& merge) {
  prepare_rank0_inputs(rank, output, "merges them whole, as one process");
  std::unique_ptr<LocalPart> part;
  rank.fence.attempt([&] {
    part = output.make_part();
    if (rank.group.rank == 0) {
      stats.output_records = merge(part->path());
    } else {
      part->create_empty();
    }
  });
  rank.fence.agree();
  output.write(rank.fence, part.get(), 0, stats.output_records, rank.pool);
}

}  // namespace gsort
