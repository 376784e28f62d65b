// The stages in order: set-up and the plan (sort_plan.cpp), then one of
// three paths (sort_in_memory.cpp; form_runs.cpp, then the merges of
// src/merge/merge_passes.cpp; or, for --merge, the merges alone), then
// verification and the commit.
#include "src/pipeline/external_sort.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/codec/output_encoder.h"
#include "io/input/input_set.h"
#include "io/output/mapped_destination.h"
#include "io/output/output_parts.h"
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
#include "src/pipeline/sort_in_memory.h"
#include "src/pipeline/sort_plan.h"
#include "src/pipeline/temp_compression.h"
#include "src/verify/output_check.h"

namespace gsort {
namespace {

// The destination's file, made first (an unwritable destination fails
// before any work), its encoder with --compress-output, and --verify's check.
struct SortOutput {
  SortOutput(const SortContext& ctx, const RunOptions& run) : target(run.output, "output", false, run.output_shown_as) {
    const SortConfig& config = ctx.config;
    if (config.compress_output) {
      encoder = make_output_encoder(config.output_format, target.file(), config.output_level, config.threads,
                                    ctx.pool);
    }
    if (config.verify) check = std::make_unique<OutputCheck>(ctx.layout, config.unique, ctx.pool);
  }
  OutputTarget target;
  std::unique_ptr<OutputEncoder> encoder;
  std::unique_ptr<OutputCheck> check;
};

// What the sort will write, where its size is known: the output (not
// encoded, not a stream), and the runs (spilled, not compressed).
RoomNeed room_need(const SortContext& ctx, const SortPlan& plan, const InputSet& inputs, SortOutput& out) {
  RoomNeed need;
  if (!inputs.size_known()) return need;
  if (!out.encoder && !out.target.is_direct()) {
    need.output_bytes = inputs.total_bytes();
    need.output_fd = out.target.file().fd();
    need.output_name = out.target.destination();
  }
  if (!plan.memory.in_memory && ctx.config.mode == Mode::kSort && ctx.config.compress_temp == TempCompression::kOff) {
    need.run_bytes = inputs.total_bytes();
    need.temp_dir = ctx.config.temp_dir;
  }
  return need;
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

// --verify's verdict, the end of a compressed output, and the output put in place.
void finish(const SortContext& ctx, const RunOptions& run, const InputTally& tally, SortOutput& out,
            ProgressMeter& meter, SortReport& report) {
  report.input_stored_bytes = tally.stored_bytes.load();
  report.output_bytes = report.output_records * ctx.layout.record_size();
  if (out.check) {
    meter.phase("verifying", 0, nullptr);
    out.check->finish(tally.records.load(), tally.hash_sum.load());
    report.verified = true;
    report.verify_hash_sum = tally.hash_sum.load();
    ctx.log.info("verified: " + plural(report.output_records, "record") + " in order, matching the input");
  }
  const Stopwatch commit_time;
  report.output_stored_bytes = report.output_bytes;
  if (out.encoder) {
    out.encoder->finish();
    report.output_stored_bytes = out.encoder->bytes_out();
  }
  meter.stop();
  out.target.prepare_commit(ctx.config.fsync);
  if (ctx.before_commit) ctx.before_commit(report);
  // --output-parts in one process: the other parts go with the commit.
  std::optional<StaleParts> stale;
  if (!run.parts_directory.empty()) stale.emplace(run.parts_directory, 1);
  out.target.publish();
  if (stale) stale->commit();
  report.add_phase("commit", commit_time.seconds());
  ctx.log.info("runs: " + std::to_string(report.runs));
  ctx.log.info("merge passes: " + std::to_string(report.merge_passes));
}

}  // namespace

SortReport external_sort(const SortContext& ctx, const RunOptions& run) {
  const SortConfig& config = ctx.config;
  const uint32_t rs = ctx.layout.record_size();
  // Outlives the locals below: the temp directory goes last.
  TempRuns runs(config.temp_dir, ctx.log, rs);
  SortReport report;
  InputTally tally;
  tally.hash_records = config.verify;
  // First, so that waiting for a slow producer on a pipe shows too.
  ProgressMeter meter(ProgressMeter::wanted(config.progress));
  meter.phase("reading", 0, &tally.stored_bytes);
  // What gsorts killed by SIGKILL left: their temp directories
  // (io/temp/stale_temp_dirs.h), and ranks' shared segments (stale_files.h).
  remove_stale_temp_dirs(config.temp_dir);
  remove_stale_files(kSharedSegmentDir, kSharedSegmentPrefix);
  InputSet inputs(config.inputs, rs, &tally, config.page_cache == PageCacheUse::kDrop);
  if (run.consume_inputs) inputs.consume_as_read();
  SortOutput out(ctx, run);
  const SortPlan plan = plan_sort(ctx, inputs);
  if (config.space_check) check_room(room_need(ctx, plan, inputs, out));
  report_plan(plan, inputs, report);
  runs.plan_writes(plan.memory.block_bytes, plan.writeback_paced);
  MappedDestination mapped(out.target.file());
  FinalOutput destination(destination_sink(out.target, out.encoder.get()), rs, plan.memory.block_bytes,
                          config.unique ? &ctx.layout : nullptr, out.check.get());
  const std::string refusal = mapping_refusal(out.target, out.encoder != nullptr, plan.writeback_paced,
                                              inputs.size_known() ? inputs.total_bytes() : 0);
  if (refusal.empty()) {
    // An in-memory sort knows its output's size before it reads: the
    // mapping's pages are made present while it reads and sorts.
    if (plan.memory.in_memory && config.mode == Mode::kSort && inputs.size_known() && inputs.total_bytes() > 0) {
      mapped.prepare(inputs.total_bytes(), ctx.pool);
    }
    destination.allow_mapping(
        [&mapped, &ctx](uint64_t bytes, uint64_t block) { return mapped.map(bytes, block, ctx.pool); });
  }
  DirectWrite direct(destination, ctx.pool, meter, report);
  const ReadProgress progress{meter, tally.stored_bytes, inputs.stored_bytes()};
  // Paced as the runs are, once a merge will write it (does nothing for a pipe).
  const auto pace_output = [&] {
    if (plan.writeback_paced) out.target.file().pace_writeback();
  };
  if (config.mode == Mode::kMerge) {
    RunMerges merges(merge_setup(ctx, plan, runs, report), runs, report);
    // More inputs than one merge takes are merged in groups, early.
    RunStack pending(merges, report);
    for (InputSet::Opener& open : inputs.lazy_sources()) {
      PendingSource input;
      input.open_input = std::move(open);
      pending.push(std::move(input));
    }
    pace_output();
    merges.merge_all(pending.take(), destination, meter, inputs.size_known() ? inputs.total_bytes() : 0);
    report.input_bytes = report.input_records * rs;
  } else if (plan.memory.in_memory) {
    sort_in_memory(ctx, plan.memory.chunk_records, inputs, progress, direct, report);
  } else {
    RunMerges merges(merge_setup(ctx, plan, runs, report), runs, report);
    const RunFormation formation{ctx, plan.memory, inputs, progress, runs, merges, direct};
    std::vector<PendingSource> formed = form_runs(formation, report);
    if (!formed.empty()) {
      pace_output();
      merges.merge_all(std::move(formed), destination, meter, report.input_records * rs);
    }
  }
  mapped.finish(report.output_records * rs, config.fsync);
  report_output_way(destination.way(), refusal, ctx.pool.size(), ctx.log, report);
  finish(ctx, run, tally, out, meter, report);
  return report;
}

}  // namespace gsort
