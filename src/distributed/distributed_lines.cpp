#include "src/distributed/distributed_lines.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/temp/temp_dir.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"
#include "src/distributed/line_rank_steps.h"
#include "src/distributed/lines/line_exchange.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/sorted_line_part.h"
#include "src/distributed/lines/streamed_lines.h"
#include "src/distributed/local/received_files.h"
#include "src/distributed/output/local_part.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/rank_input.h"
#include "src/keys/line_spec.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// Every rank's samples, the splitters chosen from them (at most N-1), and
// this rank's cuts: cuts[d] where the piece for rank d starts, cuts[N] its size.
std::vector<uint64_t> cut_by_splitters(RankContext& rank, const SortedLinePart& part, const LineComparator& compare,
                                       bool whole_keys) {
  const int ranks = rank.group.size;
  uint64_t mine = part.size(), total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, rank.group.comm);
  const uint64_t wanted = kSamplesPerMergeRange * static_cast<uint64_t>(ranks);
  std::vector<LineSample> all;
  for (const std::string& bytes : gather_to_all(rank.group, encode_samples(part.samples(rank.group.rank, total, wanted)))) {
    std::vector<LineSample> theirs = decode_samples(bytes);
    all.insert(all.end(), std::make_move_iterator(theirs.begin()), std::make_move_iterator(theirs.end()));
  }
  const std::vector<LineSample> splitters = choose_line_splitters(all, total, ranks, compare, whole_keys);
  std::vector<uint64_t> cuts(static_cast<size_t>(ranks) + 1, part.size());
  cuts[0] = 0;
  for (size_t p = 0; p < splitters.size(); ++p) {
    cuts[p + 1] = std::max(cuts[p], part.cut(rank.group.rank, splitters[p], compare, whole_keys));
  }
  return cuts;
}

// 2. This rank's slice, sorted with every option into `sorted` (a file
// of `scratch`).
void sort_slice(RankContext& rank, const RankInput& input, const SortConfig& line_config, uint8_t eol,
                std::optional<TempDir>& scratch, TempFile& sorted, RankStats& stats) {
  TempFile slice;
  rank.fence.attempt([&] {
    scratch.emplace(rank.config.temp_dir);
    uint64_t number = 0;
    slice = scratch->create_file("lines-slice", &number);
    sorted = scratch->create_file("lines-sorted", &number);
    const RecordRange range = rank_line_slice(input.inputs, eol, rank.group.rank, rank.group.size);
    stats.slice_records = write_line_slice(input.inputs, range, eol, slice.file);
    const SortReport report = sort_lines_into(rank, line_config, Mode::kSort, {descriptor_path(slice)},
                                              "/dev/fd/" + std::to_string(sorted.file.fd()));
    stats.runs = report.runs;
    test_fault_point("sort", rank.group.rank);
  });
  if (scratch) scratch->remove(slice);
  rank.fence.agree();
}

// 3 and 4. The splitters, where they cut the sorted part, and the pieces
// traded into `received`.
void trade_pieces(RankContext& rank, const std::string& sorted, uint8_t eol, const LineComparator& compare,
                  bool unique, std::optional<ReceivedFiles>& received, RankStats& stats) {
  Stopwatch step;
  std::optional<SortedLinePart> part;
  rank.fence.attempt([&] { part.emplace(sorted, eol); });
  rank.fence.agree();
  const std::vector<uint64_t> cuts = cut_by_splitters(rank, *part, compare, unique);
  stats.splitters_s = step.lap();
  rank.fence.attempt([&] { received.emplace(rank.config.temp_dir, rank.group.size, 1); });
  rank.fence.agree();
  const ExchangeTally moved = exchange_line_pieces(rank, *part, cuts, *received);
  rank.fence.agree();
  stats.bytes_sent = moved.bytes_sent;
  stats.bytes_received = moved.bytes_received;
  stats.rounds = moved.rounds;
  stats.exchange_wait_s = moved.wait_s;
  stats.received_records = received->records();
  stats.exchange_s = step.lap();
}

}  // namespace

void distributed_sort_lines(const RankGroup& group, const SortConfig& given) {
  const Stopwatch total;
  // The ranks' machinery (the inputs end to end, the output's offsets)
  // takes lines as bytes: one-byte records.
  SortConfig as_bytes = given;
  as_bytes.record_size = 1;
  RankContext rank(group, as_bytes);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  // Inputs every rank can split by their size, or that rank 0 alone reads as they come.
  const bool streamed = inputs_only_rank0_reads(group, given.inputs);
  std::optional<RankInput> input;
  if (streamed) {
    prepare_rank0_inputs(rank, output);
  } else {
    input.emplace(prepare_rank_input(rank, output, stats));
  }
  SortConfig line_config = given;
  line_config.device = rank.config.device;
  share_random_seed(group, line_config);
  const LineComparator compare(make_line_spec(line_config.lines, line_config.reverse, line_config.unique));
  const uint8_t eol = compare.spec().eol;
  std::optional<ContentCheck> content;
  if (input) content.emplace(input->inputs, input->views, group.rank);
  rank.log.info(given.exchange == ExchangeChoice::kShm || given.exchange == ExchangeChoice::kNccl
                    ? "exchange: text lines, whatever --exchange says, through MPI"
                    : "exchange: text lines through MPI");
  Stopwatch step;
  std::optional<ReceivedFiles> received;
  if (streamed) {
    rank.fence.attempt([&] { received.emplace(rank.config.temp_dir, 1, 1); });
    rank.fence.agree();
    stream_lines_to_ranks(rank, compare, given.inputs, *received, stats);
    rank.fence.agree();
    stats.received_records = received->records();
    stats.exchange_s = step.lap();
  } else {
    // In a private directory of -T, as files without names: nothing a
    // killed rank leaves takes space (io/temp/temp_dir.h).
    std::optional<TempDir> scratch;
    TempFile sorted;
    sort_slice(rank, *input, line_config, eol, scratch, sorted, stats);
    stats.sort_s = step.lap();
    trade_pieces(rank, descriptor_path(sorted), eol, compare, given.unique, received, stats);
    scratch->remove(sorted);
    step.lap();
  }

  // 5. What came into this rank's part of the output: merged in rank
  // order, or (streamed, in input order) sorted.
  std::unique_ptr<LocalPart> part;
  rank.fence.attempt([&] {
    part = output.make_part();
    received->finish();
    const SortReport done = sort_lines_into(rank, line_config, streamed ? Mode::kSort : Mode::kMerge,
                                            received->paths(), part->path());
    stats.output_records = done.output_bytes;
  });
  rank.fence.agree();
  received.reset();
  stats.sort_s += step.lap();

  // 6. The order across ranks, and the inputs' content.
  std::string ends;
  rank.fence.attempt([&] { ends = part_ends(part->path(), eol); });
  check_boundaries(rank, ends, compare, given.unique);
  if (content) content->compare(rank);

  // 7. The output, then the report.
  output.write(rank.fence, part.get(), 0, stats.output_records, rank.pool);
  stats.write_s = step.lap();
  report_line_ranks(rank, output, stats, total);
}

}  // namespace gsort
