// The stages in order: set-up and the plan (sort_plan.cpp), then one of
// four paths (sort_in_memory.cpp; sort_on_device.cpp, for an input the
// GPU's memory holds whole; form_runs.cpp, then the merges of
// src/merge/merge_passes.cpp; or, for --merge, the merges alone), then
// verification and the commit.
#include "src/pipeline/external_sort.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/input/input_set.h"
#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"
#include "io/temp/stale_files.h"
#include "io/temp/stale_temp_dirs.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/merge/merge_passes.h"
#include "src/merge/run_stack.h"
#include "src/merge/temp_runs.h"
#include "src/output/final_output.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/form_runs.h"
#include "src/pipeline/output_mapping.h"
#include "src/pipeline/read_progress.h"
#include "src/pipeline/room_check.h"
#include "src/pipeline/sort_destination.h"
#include "src/pipeline/sort_in_memory.h"
#include "src/pipeline/sort_on_device.h"
#include "src/pipeline/sort_plan.h"
#include "src/pipeline/temp_compression.h"
#include "src/verify/output_check.h"

namespace gsort {
namespace {

// The destination (sort_destination.h), and --verify's check.
struct SortOutput : SortDestination {
  SortOutput(const SortContext& ctx, const RunOptions& run)
      : SortDestination(run.output, run.output_shown_as, output_staging_bytes(ctx.config, 0), ctx.config.temp_dir,
                        compressed_output(ctx.config, ctx.pool)) {
    if (ctx.config.verify) check = std::make_unique<OutputCheck>(ctx.layout, ctx.config.unique, ctx.pool);
  }
  std::unique_ptr<OutputCheck> check;
};

// The runs the sort writes on -T, as they would be written plain, where
// the input's size is known: a spilled sort's (a run per chunk, each
// spill_streams files; merged early, and in passes, when more wait than
// one merge takes or the descriptors allow), or those of --merge's merges
// of more inputs than one merge takes. A merged run is one file.
RunsRoom runs_room(const SortContext& ctx, const SortPlan& plan, const InputSet& inputs) {
  RunsRoom r;
  if (!inputs.size_known() || inputs.total_bytes() == 0) return r;
  const MergeLimits& limits = plan.limits;
  const uint64_t rs = ctx.layout.record_size();
  r.bytes = inputs.total_bytes();
  if (ctx.config.mode == Mode::kMerge) {
    return merged_inputs_room(ctx.config.inputs.size(), r.bytes, limits.fan_in, limits.max_open_runs);
  }
  if (plan.memory.in_memory) return RunsRoom{};
  const uint64_t chunk = std::max<uint64_t>(plan.memory.chunk_records, 1);
  const uint64_t chunks = (r.bytes / rs + chunk - 1) / chunk;
  const uint64_t streams = std::max<uint64_t>(plan.memory.spill_streams, 1);
  r.files = std::min<uint64_t>(chunks * streams, limits.max_open_runs + streams) + 1;
  r.merged_into_runs = chunks >= limits.fan_in || chunks * streams >= limits.max_open_runs;
  r.largest_file = r.merged_into_runs ? r.bytes : (chunk + streams - 1) / streams * rs;
  r.merge_sources = std::min<uint64_t>(chunks, limits.fan_in);
  return r;
}

// Checks the room the sort needs (room_check.h): the output now, the runs
// now where they are plain, or once the sample has decided them so.
void check_room(const SortContext& ctx, const SortPlan& plan, const InputSet& inputs, TempRuns& runs,
                RoomCheck& room) {
  // --merge has no chunk to sample: its runs are plain unless compressed.
  room.count_runs_as_written(runs_room(ctx, plan, inputs), ctx.config.compress_temp, ctx.config.mode != Mode::kMerge,
                             runs);
}

// What the plan says in the report.
void report_plan(const SortPlan& plan, const InputSet& inputs, SortReport& report) {
  report.memory_budget = plan.budget;
  report.chunk_records = plan.memory.chunk_records;
  report.temp.streams = plan.memory.spill_streams;
  report.temp.writeback_paced = plan.writeback_paced;
  if (inputs.size_known()) {
    report.temp.expected_bytes = inputs.total_bytes();
    report.input_bytes = inputs.total_bytes();
  }
}

// What every merge of this sort takes. A merge that writes a run settles
// --compress-temp first where no spill did (--merge: nothing to sample).
MergeSetup merge_setup(const SortContext& ctx, const SortPlan& plan, TempRuns& runs, SortReport& report) {
  const auto settle_runs = [&ctx, &plan, &runs, &report] {
    decide_run_compression(ctx, plan.memory.source_records, RunSample{}, runs, report.temp);
  };
  return MergeSetup{ctx.layout, ctx.backend, ctx.pool, ctx.log, plan.limits, plan.windows, settle_runs};
}

// --verify's verdict, then the commit (commit_output.h).
void finish(const SortContext& ctx, const RunOptions& run, const InputTally& tally, SortOutput& out,
            ProgressMeter& meter, SortReport& report) {
  report.input_stored_bytes = tally.stored_bytes.load();
  report.output_bytes = report.output_records * ctx.layout.record_size();
  SortDestination::Verdict verdict;
  if (out.check) {
    verdict = [&out, &tally] {
      out.check->finish(tally.records.load(), tally.hash_sum.load());
      return tally.hash_sum.load();
    };
  }
  SortDestination::verify(verdict, "record", meter, ctx.log, report);
  std::function<void()> before_commit;
  if (ctx.before_commit) before_commit = [&ctx, &report] { ctx.before_commit(report); };
  out.commit(meter, ctx.config.fsync, run.parts_directory, before_commit, report);
  ctx.log.info("runs: " + std::to_string(report.runs));
  ctx.log.info("merge passes: " + std::to_string(report.merge_passes));
}

// A spilled sort that outgrows the page cache (plan.writeback_paced): its
// output is written around the cache where it can (around_the_cache.h),
// else paced as the runs are (nothing happens for a pipe).
void output_past_the_cache_or_paced(const SortContext& ctx, const SortPlan& plan, SortOutput& out) {
  if (!out.write_around_the_cache(plan.budget, ctx.log)) out.target.file().pace_writeback();
}

// Lets the destination be written through a mapping, where nothing
// refused it.
void allow_mapped_output(const SortContext& ctx, const SortPlan& plan, const InputSet& inputs, RoomCheck& room,
                         MappedDestination& mapped, FinalOutput& destination) {
  // An in-memory sort knows its output's size before it reads: the
  // mapping's pages are made present while it reads and sorts.
  if (plan.memory.in_memory && ctx.config.mode == Mode::kSort && inputs.size_known() && inputs.total_bytes() > 0 &&
      room.may_map()) {
    mapped.prepare(inputs.total_bytes(), ctx.pool);
  }
  // A stream's likewise, as far as it is read, in case its first chunk holds it whole.
  if (!plan.memory.in_memory && ctx.config.mode == Mode::kSort && !inputs.size_known() && room.may_map()) {
    mapped.prepare_growing(plan.memory.chunk_records * ctx.layout.record_size(), ctx.pool);
  }
  // Room is checked again when the runs are settled: a mapping that no
  // longer fits beside them is not made.
  // The final merge in ranges fills it whole on every thread (src/merge/parallel_merge.h).
  allow_mapped_blocks(destination, mapped, room);
}

}  // namespace

SortReport external_sort(const SortContext& ctx, const RunOptions& run) {
  const SortConfig& config = ctx.config;
  const uint32_t rs = ctx.layout.record_size();
  // Outlives the locals below: the temp directory goes last.
  TempRuns runs(config.temp_dir, ctx.log, rs, config.compress_program, config.threads);
  std::vector<PendingSource> merged_runs;  // removed after the commit
  SortReport report;
  InputTally tally;
  tally.hash_records = config.verify;
  // First, so that waiting for a slow producer on a pipe shows too.
  ProgressMeter meter(ProgressMeter::wanted(config));
  meter.phase("reading", 0, &tally.stored_bytes);
  // What gsorts killed by SIGKILL left: their temp directories
  // (io/temp/stale_temp_dirs.h), and ranks' shared segments (stale_files.h).
  remove_stale_temp_dirs(config.temp_dir);
  remove_stale_files(kSharedSegmentDir, kSharedSegmentPrefix);
  InputSet inputs(config.inputs, rs, &tally, config.page_cache == PageCacheUse::kDrop);
  if (run.consume_inputs) inputs.consume_as_read();
  SortOutput out(ctx, run);
  // --merge's output file may be set aside while its inputs merge early (push_inputs).
  const bool may_set_aside = config.mode == Mode::kMerge && !out.encoded() && out.target.can_set_aside();
  const SortPlan plan = plan_sort(ctx, inputs, may_set_aside);
  const uint64_t input_bytes = inputs.size_known() ? inputs.total_bytes() : 0;
  out.plan_room(config, input_bytes, input_bytes, plan.writeback_paced);
  check_room(ctx, plan, inputs, runs, *out.room);
  report_plan(plan, inputs, report);
  runs.plan_writes(plan.memory.block_bytes, plan.writeback_paced);
  MappedDestination& mapped = out.mapped;
  FinalOutput destination(out.sink(), rs, plan.memory.block_bytes, config.unique ? &ctx.layout : nullptr,
                          out.check.get());
  if (out.refusal.empty()) allow_mapped_output(ctx, plan, inputs, *out.room, mapped, destination);
  // The device tier knows its output's size once the device holds the input.
  const PrepareOutput prepare_held_output = [&](uint64_t bytes, uint64_t lead) {
    if (out.may_map() && !mapped.mapped()) mapped.prepare(bytes, ctx.pool, lead);
  };
  DirectWrite direct(destination, ctx.pool, meter, report);
  const ReadProgress progress{meter, tally.stored_bytes, inputs.stored_bytes()};
  const auto pace_output = [&] {
    if (plan.writeback_paced) output_past_the_cache_or_paced(ctx, plan, out);
  };
  if (config.mode == Mode::kMerge) {
    RunMerges merges(merge_setup(ctx, plan, runs, report), runs, report);
    // More inputs than one merge takes are merged in groups, early.
    RunStack pending(merges, report);
    const bool early = config.inputs.size() > plan.limits.fan_in;
    pending.push_inputs(input_sources(inputs.lazy_sources()), plan.limits.fan_in, may_set_aside && early ? &out.target : nullptr);
    pace_output();
    merged_runs = merges.merge_all(pending.take(), destination, meter, inputs.size_known() ? inputs.total_bytes() : 0);
    report.input_bytes = report.input_records * rs;
  } else if (plan.memory.in_memory) {
    if (!sort_on_device(ctx, plan.budget, true, inputs, progress, destination, prepare_held_output, report)) {
      sort_in_memory(ctx, plan.memory.chunk_records, inputs, out.target.file().fd(), progress, direct, report);
    }
  } else {
    pace_output();
    if (!sort_on_device(ctx, plan.budget, false, inputs, progress, destination, prepare_held_output, report)) {
      RunMerges merges(merge_setup(ctx, plan, runs, report), runs, report);
      OutputGrowth growth{[&mapped](uint64_t bytes) { mapped.grow(bytes); }, [&mapped] { mapped.abandon_growth(); }};
      const RunFormation formation{ctx,    plan.memory, inputs,      progress, runs,
                                   merges, direct,      plan.budget, &growth,  !out.refusal.empty()};
      std::vector<PendingSource> formed = form_runs(formation, report);
      if (!formed.empty()) merged_runs = merges.merge_all(std::move(formed), destination, meter, report.input_records * rs);
    }
  }
  out.close(report.output_records * rs, destination.way(), config.fsync, ctx.pool, ctx.log, report);
  finish(ctx, run, tally, out, meter, report);
  if (!merged_runs.empty()) {
    const Stopwatch removing;
    runs.remove(merged_runs, ctx.pool);
    ctx.log.info("runs removed after the commit in " + seconds_text(removing.seconds()));
  }
  return report;
}

}  // namespace gsort
