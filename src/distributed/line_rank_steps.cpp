#include "src/distributed/line_rank_steps.h"

#include <algorithm>
#include <optional>

#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/distributed/lines/sorted_line_part.h"
#include "src/distributed/ranks/rank_config.h"
#include "src/distributed/ranks/rank_trace.h"
#include "src/lines/sort_lines.h"
#include "src/verify/sorted_check.h"

namespace gsort {
// One process's line sort (or -m) of `inputs` into `output`, as this rank
// runs it: its own -S, threads and -T, quiet.
SortReport sort_lines_into(RankContext& rank, const SortConfig& line_config, Mode mode,
                           const std::vector<std::string>& inputs, const std::string& output,
                           const RunOptions::Range& range) {
  SortConfig c = local_sort_config(line_config, inputs);
  c.mode = mode;
  RunOptions run;
  run.output = output;
  run.output_range = range;
  run.output_shown_as = rank.config.output;
  const Stopwatch took;
  const SortReport report = sort_lines(c, run, rank.pool, local_sort_log()).report;
  // Where the local sort's time went, where the test hook lets it talk.
  for (const auto& [name, seconds] : report.phases) {
    local_sort_log().info("phase " + name + ": " + seconds_text(seconds));
  }
  local_sort_log().info("local sort: " + seconds_text(took.seconds()) + " in all");
  return report;
}

// -R without --random-source: every rank takes rank 0's seed, so that all
// order lines alike.
void share_random_seed(const RankGroup& group, SortConfig& config) {
  std::string seed(config.lines.random_seed.begin(), config.lines.random_seed.end());
  broadcast_from_rank0(group, seed);
  std::copy(seed.begin(), seed.end(), config.lines.random_seed.begin());
}

namespace {

// The first and the last line of a part (none where it is empty).
std::string ends_of(const SortedLinePart& part) {
  if (part.size() == 0) return std::string();
  return encode_samples({LineSample{0, 0, 0, part.line(0)}, LineSample{0, 0, 0, part.line(part.line_before(part.size()))}});
}

}  // namespace

std::string part_ends(const std::string& path, uint8_t eol) { return ends_of(SortedLinePart(path, eol)); }

std::string part_ends(const std::string& path, uint8_t eol, uint64_t begin, uint64_t end) {
  return ends_of(SortedLinePart(path, eol, begin, end));
}

// Collective: every rank's last line sorts no later than the next
// non-empty part's first (strictly before under -u, which drops equal
// keys); else a wrong output would be written.
void check_boundaries(RankContext& rank, const std::string& mine, const LineComparator& compare, bool unique) {
  const std::vector<std::string> all = gather_to_all(rank.group, mine);
  rank.fence.attempt([&] {
    std::optional<std::string> last;
    for (size_t r = 0; r < all.size(); ++r) {
      if (all[r].empty()) continue;
      const std::vector<LineSample> ends = decode_samples(all[r]);
      const std::string& first = ends.at(0).line;
      if (last) {
        const int c = compare.compare(reinterpret_cast<const uint8_t*>(last->data()), last->size(),
                                      reinterpret_cast<const uint8_t*>(first.data()), first.size());
        if (out_of_order(c, unique)) {
          throw Error("internal error: the part of rank " + std::to_string(r) +
                      " does not follow the part before it in order");
        }
      }
      last = ends.at(1).line;
    }
  });
  rank.fence.agree();
}

// A nameless file's path for a reader of its own.
std::string descriptor_path(const TempFile& f) { return "/proc/self/fd/" + std::to_string(f.file.fd()); }

// Rank 0 reports for all ranks, under -v and in --stats (records there are bytes).
void report_line_ranks(RankContext& rank, DistributedOutput& output, RankStats& stats, const Stopwatch& total) {
  stats.total_s = total.seconds();
  const std::vector<RankStats> all = gather_rank_stats(rank.group, stats);
  if (rank.group.rank != 0) return;
  for (size_t r = 0; r < all.size(); ++r) {
    const RankStats& s = all[r];
    rank.log.info("rank " + std::to_string(r) + ": " + std::to_string(s.slice_records) + " bytes of lines in, " +
                  std::to_string(s.received_records) + " in its range, " + std::to_string(s.output_records) +
                  " out; sent " + std::to_string(s.bytes_sent) + " bytes in " + std::to_string(s.rounds) +
                  " rounds; sorts " + seconds_text(s.sort_s) + ", splitters " + seconds_text(s.splitters_s) +
                  ", exchange " + seconds_text(s.exchange_s) + ", write " + seconds_text(s.write_s));
  }
  output.write_stats(rank_stats_json(all, 1, total.seconds()));
  output.write_trace(ranks_trace_json(all));
}

}  // namespace gsort
