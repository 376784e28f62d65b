// The steps the ranks' sorts of lines share (distributed_lines.h and
// distributed_merge_lines.h): one process's line sort on a rank, the seed
// of -R, each part's ends and their order across ranks, rank 0's report.
#pragma once

#include <string>
#include <vector>

#include "io/temp/temp_dir.h"
#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/core/stopwatch.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/keys/line_compare.h"
#include "src/report/sort_report.h"

namespace gsort {

// One process's line sort (or -m, by `mode`) of `inputs` into `output`, as
// this rank runs it: its own -S, threads and -T, quiet. `range`: bytes
// not 0 where `output` is the one output file and the sort fills exactly
// that range of it (RunOptions::output_range).
SortReport sort_lines_into(RankContext& rank, const SortConfig& line_config, Mode mode,
                           const std::vector<std::string>& inputs, const std::string& output,
                           const RunOptions::Range& range = {});

// Collective: -R without --random-source: every rank takes rank 0's seed,
// so that all order lines alike.
void share_random_seed(const RankGroup& group, SortConfig& config);

// The first and the last line of a part at `path` (empty where it has
// none), for check_boundaries.
std::string part_ends(const std::string& path, uint8_t eol);
// The same for bytes [begin, end) of the file at `path`.
std::string part_ends(const std::string& path, uint8_t eol, uint64_t begin, uint64_t end);

// Collective: every rank's last line sorts no later than the next
// non-empty part's first (strictly before under -u, which drops equal
// keys); else a wrong output would be written (every rank fails).
void check_boundaries(RankContext& rank, const std::string& mine, const LineComparator& compare, bool unique);

// A nameless file's path for a reader of its own.
std::string descriptor_path(const TempFile& f);

// Collective: rank 0 reports for all ranks, under -v and in --stats
// (records there are bytes).
void report_line_ranks(RankContext& rank, DistributedOutput& output, RankStats& stats, const Stopwatch& total);

}  // namespace gsort
