// The stages in order, each handed what it reads and what it writes: the
// plan of what -S alone decides and the destination; then -m's merges
// (line_merges.h), or the runs formed (form_runs.h), held where the GPU's
// memory can hold them (hold_runs.h), and merged; then --verify's verdict
// and the commit.
#include "src/lines/sort_lines.h"

#include <memory>
#include <vector>

#include "io/input/input_set.h"
#include "io/input/line_chunk_reader.h"
#include "io/input/line_sample.h"
#include "io/temp/stale_temp_dirs.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/core/device_budget.h"
#include "src/keys/collation.h"
#include "src/lines/form_runs.h"
#include "src/lines/hold_runs.h"
#include "src/lines/line_context.h"
#include "src/lines/line_destination.h"
#include "src/lines/line_merges.h"
#include "src/merge/merge_limits.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/pipeline/room_check.h"
#include "src/report/progress.h"
#include "src/verify/line_check.h"

namespace gsort {
namespace {

// From this input size on, a locale's table of heads is built ahead
// (CollationTableAhead, some 20 ms on a thread of its own).
constexpr uint64_t kTableAheadBytes = uint64_t{64} << 20;

// What -S alone decides (the chunks are planned once the sorter says what
// a line takes: plan_line_chunks): the longest line, the output's blocks,
// -m's windows and fan-in.
LinePlan plan_of_the_budget(const SortConfig& config) {
  return plan_lines(config.memory_bytes, 0, 0, config.inputs.size(), config.batch_size, free_descriptors(2),
                    config.spill_streams);
}

// What the chunks' plan says in the report.
void report_plan(const LinePlan& plan, const LineReader& reader, SortReport& report) {
  report.memory_budget = plan.budget;
  report.chunk_records = plan.chunk_lines;
  report.temp.streams = plan.spill_streams;
  report.temp.expected_bytes = reader.known_bytes();
}

// The room check counts the runs a spilled sort of `bytes` of lines writes
// (room_check.h): now where they are plain, or once the sample decides.
void count_line_runs(const LineContext& ctx, const LinePlan& plan, uint64_t bytes, TempRuns& runs, RoomCheck& room) {
  const SortConfig& config = ctx.config;
  if (bytes == 0 || config.compress_temp == TempCompression::kOn) return;  // spares the sample's reads
  const RunsRoom room_for_runs =
      line_runs_room(plan, bytes, config.inputs.size(), sampled_line_length(config.inputs, ctx.eol()));
  room.count_runs_as_written(room_for_runs, config.compress_temp, true, runs);
}

// -m: the inputs, each a source of sorted lines, merged into `out`.
void merge_inputs(const LineMerges& merges, LineDestination& out, ProgressMeter& meter, InputTally& tally) {
  const SortConfig& config = merges.context().config;
  auto set = std::make_shared<InputSet>(config.inputs, 1, &tally, false);
  std::vector<PendingSource> sources = input_sources(set->lazy_sources(), set);
  bool known = false;
  const uint64_t bytes = plain_input_bytes(config.inputs, &known);
  // A terminator may be added to each input's last line.
  merge_line_inputs(merges, out, meter, std::move(sources), known ? bytes + config.inputs.size() : 0);
  merges.report().input_records = merges.report().output_records;
}

// What sorting the inputs takes beside the context, from the driver.
struct SortInputs {
  LineDestination& out;
  TempRuns& runs;
  LineVerify* verify;
  ProgressMeter& meter;
  InputTally& tally;
  std::shared_ptr<DeviceBudget> device_budget;  // --gpu-memory, for the sorter and the held runs together
};

// The chunks read, sorted and spilled as runs (or written, where one chunk
// holds the input), then merged: the reader and the sorter made and the
// chunks planned; then, where the sort spills, where its runs go (the
// GPU's memory or the temporary directory, whose room is counted) and
// whether the output is written around the page cache. The sorter and the
// reader go before the merge, which takes their memory. Returns what
// sorted the chunks.
std::string sort_inputs(const LineContext& ctx, const SortInputs& in, SortReport& report) {
  const SortConfig& config = ctx.config;
  auto reader = std::make_unique<LineReader>(config.inputs, ctx.eol(), plan_of_the_budget(config).max_line, ctx.pool,
                                             &in.tally, config.page_cache == PageCacheUse::kDrop);
  // A large input in a locale: its table of heads built while it is mapped and indexed.
  const bool large = reader->known_bytes() >= kTableAheadBytes;
  const CollationTableAhead table(large && ctx.spec().collate_text ? ctx.spec().collation : nullptr);
  std::unique_ptr<LineSorter> sorter = make_line_sorter(config, ctx.spec(), ctx.pool, ctx.log, in.device_budget);
  const std::string sorted_by = sorter->describe();
  const LinePlan plan = plan_line_chunks(ctx, *reader, *sorter);
  report_plan(plan, *reader, report);
  in.runs.plan_writes(plan.block_bytes, false);
  const LineMerges merges(ctx, plan, in.runs, in.verify, report);
  HeldLineRuns held;
  if (plan.double_buffered) {
    held.start(ctx, reader->known_bytes(), in.device_budget, report);
    count_line_runs(ctx, plan, reader->known_bytes(), in.runs, *in.out.room);
    in.out.write_past_the_cache(ctx, plan.budget, reader->known_bytes());
  }
  const LineRunFormation formation{ctx, plan, *reader, *sorter, in.out, merges, held, in.verify, in.meter, in.tally};
  std::vector<PendingSource> runs = sort_line_chunks(formation, report);
  sorter.reset();
  reader.reset();
  if (!runs.empty() || held.runs() > 0) {
    merge_line_sources(merges, in.out, held.store(), in.meter, std::move(runs), report.input_bytes,
                       line_merge_limits(plan));
  }
  return sorted_by;
}

// The output's mapping closed, --verify's verdict, then the commit
// (src/pipeline/sort_destination.h).
void commit(const LineContext& ctx, const RunOptions& run, LineDestination& out, LineVerify* verify,
            const InputTally& tally, ProgressMeter& meter, const std::string& sorter,
            const LinesBeforeCommit& before_commit, SortReport& report) {
  report.input_stored_bytes = tally.stored_bytes.load();
  out.close(report.output_bytes, out.blocks.way(), ctx.config.fsync, ctx.pool, ctx.log, report);
  SortDestination::Verdict verdict;
  if (verify) {
    verdict = [verify] {
      verify->finish();
      return verify->input_hash_sum();
    };
  }
  SortDestination::verify(verdict, "line", meter, ctx.log, report);
  std::function<void()> hook;
  if (before_commit) hook = [&before_commit, &report, &sorter] { before_commit(report, sorter); };
  out.commit(meter, ctx.config.fsync, run.parts_directory, hook, report);
}

}  // namespace

LineSortOutcome sort_lines(const SortConfig& config, const RunOptions& run, ThreadPool& pool, const Log& log,
                           const LinesBeforeCommit& before_commit) {
  const LineContext ctx(config, pool, log);
  const LinePlan budget_plan = plan_of_the_budget(config);
  LineSortOutcome outcome;
  ProgressMeter meter(ProgressMeter::wanted(config));
  if (config.mode == Mode::kCheck) {
    meter.phase("checking", 0, nullptr);
    outcome.check = check_sorted_lines(config.inputs.front(), ctx.compare, budget_plan.max_line, nullptr);
    return outcome;
  }
  remove_stale_temp_dirs(config.temp_dir);
  SortReport report;
  InputTally tally;
  std::unique_ptr<LineVerify> verify;
  if (config.verify) verify = std::make_unique<LineVerify>(ctx.spec());
  // Outlives the destination: the temporary directory goes last.
  TempRuns runs(config.temp_dir, log, 1, config.compress_program, config.threads);
  LineDestination out(ctx, run, budget_plan);
  std::string sorter;
  if (config.mode == Mode::kMerge) {
    sorter = "merge";
    merge_inputs(LineMerges(ctx, budget_plan, runs, verify.get(), report), out, meter, tally);
  } else {
    const SortInputs in{out, runs, verify.get(), meter, tally, std::make_shared<DeviceBudget>(config.gpu_memory)};
    sorter = sort_inputs(ctx, in, report);
  }
  if (out.mapped.populating_ahead()) {
    log.info("output: the writers waited " + seconds_text(out.mapped.populate_waited_s()) +
             " for its pages to be made present");
  }
  commit(ctx, run, out, verify.get(), tally, meter, sorter, before_commit, report);
  outcome.report = report;
  outcome.sorter = sorter;
  return outcome;
}

}  // namespace gsort
