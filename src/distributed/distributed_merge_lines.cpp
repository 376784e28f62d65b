#include "src/distributed/distributed_merge_lines.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/temp/temp_dir.h"
#include "src/core/stopwatch.h"
#include "src/distributed/line_rank_steps.h"
#include "src/distributed/lines/slice_check.h"
#include "src/distributed/lines/sorted_line_part.h"
#include "src/distributed/output/local_part.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/merge_on_rank0.h"
#include "src/distributed/rank_input.h"
#include "src/keys/line_spec.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// Every input mapped, as a run of the merge (an unterminated last line is
// a line, as one process reads it).
std::vector<std::unique_ptr<SortedLinePart>> map_inputs(const std::vector<std::string>& names, uint8_t eol) {
  std::vector<std::unique_ptr<SortedLinePart>> runs;
  for (const std::string& name : names) runs.push_back(std::make_unique<SortedLinePart>(name, eol, false));
  return runs;
}

// cuts[i][d]: where rank d's piece of input i starts (cuts[i][N]: its
// size), from splitters every rank chooses alike from samples of every input.
std::vector<std::vector<uint64_t>> cut_inputs(const std::vector<std::unique_ptr<SortedLinePart>>& runs, int ranks,
                                              const LineComparator& compare, bool whole_keys) {
  uint64_t total = 0;
  for (const auto& r : runs) total += r->size();
  std::vector<LineSample> samples;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<LineSample> mine = runs[i]->samples(static_cast<int>(i), total, kSamplesPerMergeRange * ranks);
    samples.insert(samples.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
  }
  const std::vector<LineSample> splitters = choose_line_splitters(samples, total, ranks, compare, whole_keys);
  std::vector<std::vector<uint64_t>> cuts(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    cuts[i].assign(static_cast<size_t>(ranks) + 1, runs[i]->size());
    cuts[i][0] = 0;
    for (size_t p = 0; p < splitters.size(); ++p) {
      cuts[i][p + 1] = std::max(cuts[i][p], runs[i]->cut(static_cast<int>(i), splitters[p], compare, whole_keys));
    }
  }
  return cuts;
}

// This rank's piece of every input, each in a nameless file of `scratch`;
// false where one is not sorted (by the order, not strictly: -m takes
// equal lines) or does not follow the piece before it in its input.
bool take_pieces(RankContext& rank, const std::vector<std::unique_ptr<SortedLinePart>>& runs,
                 const std::vector<std::vector<uint64_t>>& cuts, const LineComparator& order, TempDir& scratch,
                 std::vector<TempFile>& pieces) {
  const size_t r = static_cast<size_t>(rank.group.rank);
  bool sorted = true;
  for (size_t i = 0; i < runs.size(); ++i) {
    const uint64_t from = cuts[i][r], to = cuts[i][r + 1];
    uint64_t number = 0;
    pieces.push_back(scratch.create_file("merge-piece", &number));
    if (to > from) pieces.back().file.write_all(runs[i]->bytes() + from, to - from);
    if (to > from && from > 0) {
      // The line before this piece, in its input: the piece must not start before it.
      const std::string a = runs[i]->line(runs[i]->line_before(from)), b = runs[i]->line(from);
      sorted &= order.compare(reinterpret_cast<const uint8_t*>(a.data()), a.size(),
                              reinterpret_cast<const uint8_t*>(b.data()), b.size()) <= 0;
    }
    // Checked where it lies in the mapped input, on the rank's threads.
    if (to > from) sorted &= lines_in_order(runs[i]->bytes() + from, to - from, order, rank.pool);
  }
  return sorted;
}

}  // namespace

void distributed_merge_lines(const RankGroup& group, const SortConfig& given) {
  const Stopwatch total;
  SortConfig as_bytes = given;
  as_bytes.record_size = 1;  // lines as bytes, to the ranks' machinery
  RankContext rank(group, as_bytes);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  const bool streamed = inputs_only_rank0_reads(group, given.inputs);
  SortConfig line_config = given;
  line_config.device = rank.config.device;
  share_random_seed(group, line_config);
  if (streamed) {
    merge_on_rank0(rank, output, stats, [&](const std::string& part) {
      return sort_lines_into(rank, line_config, Mode::kMerge, given.inputs, part).output_bytes;
    });
    report_line_ranks(rank, output, stats, total);
    return;
  }
  const RankInput input = prepare_rank_input(rank, output, stats);
  const LineComparator compare(make_line_spec(line_config.lines, line_config.reverse, line_config.unique));
  // Sorted as -m reads its inputs: the order, equal lines allowed.
  const LineComparator order(make_line_spec(line_config.lines, line_config.reverse, false));
  const uint8_t eol = compare.spec().eol;
  ContentCheck content(input.inputs, input.views, group.rank);
  Stopwatch step;
  std::optional<TempDir> scratch;
  std::vector<TempFile> pieces;
  bool sorted = false;
  rank.fence.attempt([&] {
    scratch.emplace(rank.config.temp_dir);
    const auto runs = map_inputs(given.inputs, eol);
    const auto cuts = cut_inputs(runs, group.size, compare, given.unique);
    sorted = take_pieces(rank, runs, cuts, order, *scratch, pieces);
  });
  rank.fence.agree();
  const bool all_sorted = on_every_rank(group, sorted);
  stats.splitters_s = step.lap();
  if (!all_sorted) rank.log.info("merge: an input is not sorted: rank 0 merges them whole, as one process");
  std::unique_ptr<LocalPart> part;
  rank.fence.attempt([&] {
    part = output.make_part();
    std::vector<std::string> paths;
    if (all_sorted) {
      for (const TempFile& p : pieces) paths.push_back(descriptor_path(p));
    } else if (group.rank == 0) {
      paths = given.inputs;
    }
    if (!paths.empty()) {
      stats.output_records = sort_lines_into(rank, line_config, Mode::kMerge, paths, part->path()).output_bytes;
    } else {
      part->create_empty();
    }
  });
  rank.fence.agree();
  for (TempFile& p : pieces) scratch->remove(p);
  stats.sort_s = step.lap();
  std::string ends;
  rank.fence.attempt([&] { ends = part_ends(part->path(), eol); });
  if (all_sorted) check_boundaries(rank, ends, compare, given.unique);
  content.compare(rank);
  output.write(rank.fence, part.get(), 0, stats.output_records, rank.pool);
  stats.write_s = step.lap();
  report_line_ranks(rank, output, stats, total);
}

}  // namespace gsort
