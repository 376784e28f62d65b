#include "src/distributed/record_rank_report.h"

#include <string>
#include <vector>

#include "src/distributed/ranks/rank_trace.h"

namespace gsort {

void report_record_ranks(const RankContext& rank, DistributedOutput& output, RankStats& stats, const Stopwatch& total) {
  stats.total_s = total.seconds();
  const std::vector<RankStats> all = gather_rank_stats(rank.group, stats);
  if (rank.group.rank != 0) return;
  for (const std::string& line : describe_rank_stats(all, rank.config.record_size)) rank.log.info(line);
  output.write_stats(rank_stats_json(all, rank.config.record_size, total.seconds()));
  output.write_trace(ranks_trace_json(all));
}

}  // namespace gsort
