#include "src/distributed/distributed_merge_records.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "io/temp/temp_dir.h"
#include "src/core/stopwatch.h"
#include "src/distributed/line_rank_steps.h"
#include "src/distributed/local/local_sort.h"
#include "src/distributed/output/rank_boundaries.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/merge_on_rank0.h"
#include "src/distributed/rank_input.h"
#include "src/distributed/record_rank_report.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// Record k of input i.
std::vector<uint8_t> record_at(const ConcatenatedInputs& in, size_t i, uint64_t k) {
  std::vector<uint8_t> r(in.record_size());
  in.read(in.file_starts()[i] + k, 1, r.data());
  return r;
}

uint64_t input_records(const ConcatenatedInputs& in, size_t i) { return in.file_starts()[i + 1] - in.file_starts()[i]; }

// cuts[i][d]: where rank d's piece of input i starts (cuts[i][N]: its
// size), from splitters every rank chooses alike from samples of every input.
std::vector<std::vector<uint64_t>> cut_inputs(const ConcatenatedInputs& in, const KeyLayout& layout, int ranks,
                                              bool whole_keys) {
  const size_t inputs = in.file_count();
  std::vector<RangeSample> samples;
  std::vector<std::vector<uint8_t>> keys;
  for (size_t i = 0; i < inputs; ++i) {
    const uint64_t n = input_records(in, i);
    const std::vector<uint64_t> places = sample_places(n, in.total_records(), kSamplesPerMergeRange * ranks);
    for (const uint64_t k : places) {
      samples.push_back(RangeSample{i, k, static_cast<double>(n) / places.size(), keys.size()});
      keys.push_back(record_at(in, i, k));
    }
  }
  const auto order = [&](const RangeSample& a, const RangeSample& b) {
    return layout.compare(keys[a.key].data(), keys[b.key].data());
  };
  const std::vector<RangeSample> splitters =
      choose_merge_splitters(samples, in.total_records(), static_cast<size_t>(ranks), order, whole_keys);
  std::vector<std::vector<uint64_t>> cuts(inputs);
  for (size_t i = 0; i < inputs; ++i) {
    const uint64_t n = input_records(in, i);
    cuts[i].assign(static_cast<size_t>(ranks) + 1, n);
    cuts[i][0] = 0;
    for (size_t p = 0; p < splitters.size(); ++p) {
      const RangeSample& s = splitters[p];
      uint64_t lo = 0, hi = n;
      if (!whole_keys && i == s.run) {
        lo = hi = s.at;
      }
      // Records of an earlier input with the splitter's key go before it; of a later one (or any, with whole keys), after.
      const bool equal_before = !whole_keys && i < s.run;
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        const int c = layout.compare(record_at(in, i, mid).data(), keys[s.key].data());
        (c < 0 || (c == 0 && equal_before)) ? lo = mid + 1 : hi = mid;
      }
      cuts[i][p + 1] = std::max(cuts[i][p], lo);
    }
  }
  return cuts;
}

// This rank's piece of every input in a nameless file of `scratch`; false
// where one is not sorted or does not follow the record before it.
bool take_pieces(const RankContext& rank, const ConcatenatedInputs& in, const std::vector<std::vector<uint64_t>>& cuts,
                 TempDir& scratch, std::vector<TempFile>& pieces, uint64_t* records) {
  const size_t r = static_cast<size_t>(rank.group.rank);
  const uint32_t rs = in.record_size();
  const uint64_t per_read = std::max<uint64_t>(1, (uint64_t{8} << 20) / rs);
  bool sorted = true;
  for (size_t i = 0; i < in.file_count(); ++i) {
    uint64_t number = 0;
    pieces.push_back(scratch.create_file("merge-piece", &number));
    std::vector<uint8_t> previous = cuts[i][r] > 0 ? record_at(in, i, cuts[i][r] - 1) : std::vector<uint8_t>();
    std::vector<uint8_t> buf;
    for (uint64_t k = cuts[i][r]; k < cuts[i][r + 1];) {
      const uint64_t n = std::min(per_read, cuts[i][r + 1] - k);
      buf.resize(n * rs);
      in.read(in.file_starts()[i] + k, n, buf.data());
      for (uint64_t j = 0; j < n; ++j) {
        const uint8_t* rec = buf.data() + j * rs;
        if (!previous.empty()) sorted &= rank.layout.compare(previous.data(), rec) <= 0;
        previous.assign(rec, rec + rs);
      }
      pieces.back().file.write_all(buf.data(), buf.size());
      *records += n;
      k += n;
    }
  }
  return sorted;
}

}  // namespace

void distributed_merge_records(const RankGroup& group, const SortConfig& given) {
  const Stopwatch total;
  RankContext rank(group, given);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  if (inputs_only_rank0_reads(group, given.inputs)) {
    merge_on_rank0(rank, output, stats, [&](const std::string& part) {
      return merge_sorted(rank.config, rank.layout, given.inputs, part, rank.pool).output_records;
    });
    report_record_ranks(rank, output, stats, total);
    return;
  }
  const RankInput input = prepare_rank_input(rank, output, stats);
  ContentCheck content(input.inputs, input.views, group.rank);
  Stopwatch step;
  std::optional<TempDir> scratch;
  std::vector<TempFile> pieces;
  bool sorted = false;
  uint64_t piece_records = 0;
  rank.fence.attempt([&] {
    scratch.emplace(rank.config.temp_dir);
    const auto cuts = cut_inputs(input.inputs, rank.layout, group.size, given.unique);
    sorted = take_pieces(rank, input.inputs, cuts, *scratch, pieces, &piece_records);
  });
  rank.fence.agree();
  const bool all_sorted = on_every_rank(group, sorted);
  stats.splitters_s = step.lap();
  if (!all_sorted) rank.log.info("merge: an input is not sorted: rank 0 merges them whole, as one process");
  std::unique_ptr<LocalPart> part;
  uint64_t received = 0;
  rank.fence.attempt([&] {
    part = output.make_part();
    std::vector<std::string> paths;
    if (all_sorted) {
      for (const TempFile& p : pieces) paths.push_back(descriptor_path(p));
      received = piece_records;
    } else if (group.rank == 0) {
      paths = given.inputs;
      received = input.inputs.total_records();
    }
    if (!paths.empty()) {
      stats.output_records = merge_sorted(rank.config, rank.layout, paths, part->path(), rank.pool).output_records;
    } else {
      part->create_empty();
    }
  });
  rank.fence.agree();
  stats.received_records = received;
  for (TempFile& p : pieces) scratch->remove(p);
  stats.sort_s = step.lap();
  PartEnds ends;
  rank.fence.attempt([&] { ends = read_part_ends(part->path(), stats.output_records, rank.layout); });
  const bool drop_first = settle_boundaries(rank, ends, received, input.inputs.total_records());
  content.compare(rank);
  if (drop_first) stats.output_records -= 1;
  output.write(rank.fence, part.get(), drop_first ? rank.layout.record_size() : 0, stats.output_records, rank.pool);
  stats.write_s = step.lap();
  report_record_ranks(rank, output, stats, total);
}

}  // namespace gsort
