#include "src/distributed/distributed_lines.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"
#include "src/distributed/line_rank_steps.h"
#include "src/distributed/lines/line_marks.h"
#include "src/distributed/lines/line_router.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/routed_slice.h"
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

// Samples per range of the unsorted slices: more than a merge of sorted
// runs takes, since places in an unsorted slice stand for keys only by
// chance; fewer per range with many ranks (every rank sorts them all).
uint64_t samples_wanted(int ranks) {
  const uint64_t per_range = std::clamp<uint64_t>(65536 / static_cast<uint64_t>(ranks), kSamplesPerMergeRange, 1024);
  return per_range * static_cast<uint64_t>(ranks);
}

// Where lines that compare equal are the same bytes (the last-resort
// comparison, bytewise, decides every tie), their order cannot show: the
// received lines pool in memory, in any order, up to half this rank's -S
// (ReceivedFiles), for the local sort to map whole. Otherwise (-s, -u with
// keys, a locale's collation) each source keeps a file, in input order.
uint64_t received_pool_bytes(const RankContext& rank, const LineComparator& compare) {
  const LineSpec& spec = compare.spec();
  return spec.last_resort() && !spec.collate_text ? rank.config.memory_bytes / 2 : 0;
}

// -v's line on how lines move between ranks: marks among ranks of one
// view (line_marks.h), the lines themselves between views.
std::string exchange_said(const InputViews* views, ExchangeChoice exchange) {
  if (views != nullptr && any_ranks_trade_marks(*views, exchange)) {
    return views->views() == 1 ? "exchange: marks through MPI, a byte a line naming its rank: every rank on this "
                                 "host copies the lines of its range from the input"
                               : "exchange: marks, a byte a line, between ranks of one host; text lines between "
                                 "hosts, through MPI";
  }
  return exchange == ExchangeChoice::kShm || exchange == ExchangeChoice::kNccl
             ? "exchange: text lines, whatever --exchange says, through MPI"
             : "exchange: text lines through MPI";
}

// 2 to 4. This rank's slice, samples of every slice, the splitters chosen
// from them, and the slices' lines routed by them into `received` (from
// the ranks in `marked`, marks: this rank copies its lines from the input,
// line_marks.h).
void route_input(RankContext& rank, const RankInput& input, const LineComparator& compare, bool unique,
                 const std::vector<bool>& marked, std::optional<ReceivedFiles>& received, RankStats& stats) {
  Stopwatch step;
  const uint8_t eol = compare.spec().eol;
  const uint64_t total = input.inputs.total_records();
  RecordRange slice;
  std::vector<LineSample> mine;
  rank.fence.attempt([&] {
    slice = rank_line_slice(input.inputs, eol, rank.group.rank, rank.group.size);
    mine = slice_samples(input.inputs, slice, eol, rank.group.rank, total, samples_wanted(rank.group.size));
    received.emplace(rank.config.temp_dir, rank.group.size, 1, received_pool_bytes(rank, compare));
  });
  rank.fence.agree();
  std::vector<LineSample> all;
  for (const std::string& bytes : gather_to_all(rank.group, encode_samples(mine))) {
    std::vector<LineSample> theirs = decode_samples(bytes);
    all.insert(all.end(), std::make_move_iterator(theirs.begin()), std::make_move_iterator(theirs.end()));
  }
  LineRouter router(compare, unique);
  router.choose(all, total, rank.group.size);
  stats.splitters_s = step.lap();
  const ExchangeTally moved =
      route_slice(rank, input.inputs, slice, eol, router, marked, *received, &stats.slice_records);
  rank.fence.agree();
  stats.bytes_sent = moved.bytes_sent;
  stats.bytes_received = moved.bytes_received;
  stats.rounds = moved.rounds;
  stats.exchange_wait_s = moved.wait_s;
  stats.exchange_s = step.lap();
}

// Collective: the ranks received, all told, every byte of lines they read
// (terminators added included); else a line was lost or doubled on the way
// and the output would be wrong.
void check_every_line_arrived(RankContext& rank, const RankStats& stats) {
  uint64_t mine[2] = {stats.slice_records, stats.received_records}, all[2] = {0, 0};
  MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_SUM, rank.group.comm);
  rank.fence.attempt([&] {
    if (all[0] != all[1]) {
      throw Error("internal error: the ranks received " + std::to_string(all[1]) + " bytes of lines of " +
                  std::to_string(all[0]) + " read");
    }
  });
  rank.fence.agree();
}

// A rank's sorted lines: in its range of the one output file, or in a part.
struct RankLines {
  std::unique_ptr<LocalPart> part;  // null: at `offset` of the output
  uint64_t offset = 0;
  uint64_t bytes = 0;
  std::string ends;  // part_ends, for check_boundaries
};

// 5. Collective: what came into this rank (every line terminated, in input
// order), sorted as one process sorts it: straight into the rank's range
// of the one output file where every line is kept (not -u) and the output
// is one plain file, else into a part, copied there after.
RankLines sort_received(RankContext& rank, DistributedOutput& output, const SortConfig& line_config,
                        ReceivedFiles& received, uint8_t eol) {
  const SortConfig& c = rank.config;
  const bool at_offset = !c.unique && output.takes_parts_at_offsets();
  RankLines lines;
  if (at_offset) lines.offset = output.offset_of(received.records());
  rank.fence.attempt([&] {
    received.finish();
    if (!at_offset) {
      lines.part = output.make_part();
      lines.bytes = sort_lines_into(rank, line_config, Mode::kSort, received.paths(), lines.part->path()).output_bytes;
      lines.ends = part_ends(lines.part->path(), eol);
      test_fault_point("sort", rank.group.rank);
      return;
    }
    if (received.records() == 0) return;
    // Filled through a mapping of the range, by every thread, as one
    // process fills its output: a write() stream would queue on the
    // inode's lock behind the other ranks' (docs/benchmarks.md).
    lines.bytes = sort_lines_into(rank, line_config, Mode::kSort, received.paths(), output.shared_path(),
                                  RunOptions::Range{lines.offset, received.records()})
                      .output_bytes;
    if (lines.bytes != received.records()) {
      throw Error("internal error: the sorted lines do not fill this rank's range of the output");
    }
    if (c.fsync) File::open_update(output.shared_path()).flush_data_to_disk();
    lines.ends = part_ends(output.shared_path(), eol, lines.offset, lines.offset + lines.bytes);
    test_fault_point("sort", rank.group.rank);
  });
  rank.fence.agree();
  return lines;
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
    prepare_rank0_inputs(rank, output, "sends each line to the rank of its key range");
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
  std::vector<bool> marked(static_cast<size_t>(group.size), false);
  if (input) marked = ranks_sent_marks(input->views, group.rank, given.exchange);
  rank.log.info(exchange_said(input ? &input->views : nullptr, given.exchange));
  Stopwatch step;
  std::optional<ReceivedFiles> received;
  if (streamed) {
    rank.fence.attempt([&] { received.emplace(rank.config.temp_dir, 1, 1); });
    rank.fence.agree();
    stream_lines_to_ranks(rank, compare, given.inputs, *received, stats);
    rank.fence.agree();
    stats.exchange_s = step.lap();
  } else {
    route_input(rank, *input, compare, given.unique, marked, received, stats);
    step.lap();  // the local sort's time starts here (route_input timed its steps)
  }
  stats.received_records = received->records();
  check_every_line_arrived(rank, stats);

  const RankLines lines = sort_received(rank, output, line_config, *received, eol);
  received.reset();
  stats.output_records = lines.bytes;
  stats.sort_s = step.lap();

  // 6. The order across ranks, and the inputs' content.
  check_boundaries(rank, lines.ends, compare, given.unique);
  if (content) content->compare(rank);

  // 7. The output, then the report.
  output.write(rank.fence, lines.part.get(), 0, stats.output_records, rank.pool);
  stats.write_s = step.lap();
  report_line_ranks(rank, output, stats, total);
}

}  // namespace gsort
