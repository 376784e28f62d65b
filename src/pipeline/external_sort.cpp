// The stages in order: set-up and the memory plan, then one of three paths
// (sort_in_memory.cpp; form_runs.cpp then merge_passes.cpp; or, for
// --merge, merge_passes.cpp alone), then verification and the commit.
#include "src/pipeline/external_sort.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "io/output/output_target.h"
#include "io/temp/stale_temp_dirs.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/pipeline/form_runs.h"
#include "src/pipeline/merge_limits.h"
#include "src/pipeline/merge_passes.h"
#include "src/pipeline/run_stack.h"
#include "src/pipeline/sort_in_memory.h"
#include "src/pipeline/sort_job.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// -S, raised to the least budget a sort runs under (memory_plan.h): said
// under -v, or, where the records alone need more, in a warning.
uint64_t budget_to_use(const SortJob& job) {
  const uint64_t asked = job.ctx.config.memory_bytes;
  const uint64_t backend_bytes = job.ctx.backend.host_bytes_per_record();
  const uint64_t least = minimum_budget(job.rs, backend_bytes);
  if (asked >= least) return asked;
  const std::string line = "-S " + std::to_string(asked) + " bytes raised to the minimum of " +
                           std::to_string(least) + " bytes";
  if (working_set_bytes(job.rs, backend_bytes) > asked && least > kMinBudgetBytes) {
    print_diagnostic("gsort: warning: " + line + " (what " + std::to_string(job.rs) +
                     "-byte records need: two chunk buffers and a two-way merge)");
  } else {
    job.ctx.log.info("memory: " + line);
  }
  return least;
}

// The threads asked for, where --parallel was capped (options.cpp).
void log_threads(const SortJob& job) {
  const SortConfig& config = job.ctx.config;
  if (config.threads_requested > config.threads) {
    job.ctx.log.info("threads: --parallel " + std::to_string(config.threads_requested) + " capped at " +
                     std::to_string(config.threads) + " (4 per hardware thread)");
  }
}

// --page-cache drop (the default): a spilled sort whose runs and output
// outgrow what the page cache takes at memory speed hands them to the disk
// as they are written and drops them once written (io/file/writeback_pacer.h),
// rather than let the kernel's dirty limit stall the writers. In a 3 GiB
// memory cgroup on the H100 host, buffered writes of 12 GB of runs stalled
// their writer for 2.4 s at a time, and the merge wrote its output at half
// the disk's direct rate (docs/benchmarks.md).
void decide_writeback_pacing(SortJob& job, const InputSet& inputs) {
  if (job.plan.in_memory || !inputs.size_known() || job.ctx.config.page_cache != PageCacheUse::kDrop) return;
  const uint64_t room = temp_room().page_cache_bytes;
  if (inputs.total_bytes() <= room) return;
  job.report.temp.writeback_paced = true;
  job.ctx.log.info("writes paced: the runs and the output (" + std::to_string(inputs.total_bytes()) +
                   " bytes) exceed what the page cache takes at memory speed (" + std::to_string(room) +
                   " bytes); each is handed to the disk as it is written and dropped from the cache once written");
}

// The memory plan and what follows from it, logged under -v.
void plan_sort(SortJob& job, const InputSet& inputs) {
  const SortConfig& config = job.ctx.config;
  log_threads(job);
  job.stored_total = inputs.stored_bytes();
  job.budget = budget_to_use(job);
  job.report.memory_budget = job.budget;
  const unsigned streams = config.spill_streams != 0 ? config.spill_streams : kDefaultSpillStreams;
  job.plan = plan_memory(job.budget, job.rs, job.ctx.backend.host_bytes_per_record(), inputs.size_known(),
                         inputs.total_bytes() / job.rs, streams);
  std::string limits_line;
  job.limits = merge_limits(job.plan.fan_in, config.batch_size, config.mode == Mode::kMerge, free_descriptors(),
                            &limits_line);
  // Each segment of a waiting run holds a descriptor: a run takes at most a
  // quarter of those the runs may hold.
  job.plan.spill_streams = static_cast<unsigned>(
      std::clamp<uint64_t>(job.limits.max_open_runs / 4, 1, job.plan.spill_streams));
  job.report.temp.streams = job.plan.spill_streams;
  if (!job.plan.in_memory && job.plan.spill_streams != streams) {
    job.ctx.log.info("spill streams: " + std::to_string(job.plan.spill_streams) + " instead of " +
                     std::to_string(streams) + " (each needs a write buffer of at least " +
                     std::to_string(kMinStreamBlockBytes) + " bytes, and a descriptor while its run waits)");
  }
  if (inputs.size_known()) {
    job.report.temp.expected_bytes = inputs.total_bytes();
    job.report.input_bytes = inputs.total_bytes();
    job.ctx.log.info("input: " + std::to_string(job.report.input_bytes) + " bytes, " +
                     plural(job.report.input_bytes / job.rs, "record"));
  }
  job.ctx.log.info("memory: " + std::to_string(job.budget) + " bytes budget, chunks of " +
                   plural(job.plan.chunk_records, "record"));
  job.ctx.log.info(limits_line);
  decide_writeback_pacing(job, inputs);
}

// --merge, the in-memory sort, or runs then their merge.
void sort_or_merge(SortJob& job, InputSet& inputs, OutputTarget& output) {
  if (job.ctx.config.mode == Mode::kMerge) {
    if (inputs.size_known()) job.progress_total = inputs.total_bytes();
    // More inputs than one merge takes are merged in groups, early.
    RunStack pending(job);
    for (InputSet::Opener& open : inputs.lazy_sources()) {
      PendingSource input;
      input.open_input = std::move(open);
      pending.push(std::move(input));
    }
    merge_all(job, pending.take(), output);
    job.report.input_bytes = job.report.input_records * job.rs;
  } else if (job.plan.in_memory) {
    sort_in_memory(job, inputs, output);
  } else {
    std::vector<PendingSource> runs = form_runs(job, inputs, output);
    if (!runs.empty()) merge_all(job, std::move(runs), output);
  }
}

// --verify's verdict, the end of a compressed output, and the output put in place.
void finish(SortJob& job, const InputTally& tally, OutputCheck* check, ProgressMeter& meter, OutputTarget& output) {
  SortReport& report = job.report;
  report.input_stored_bytes = tally.stored_bytes.load();
  report.output_bytes = report.output_records * job.rs;
  if (check) {
    meter.phase("verifying", 0, nullptr);
    check->finish(tally.records.load(), tally.hash_sum.load());
    report.verified = true;
    report.verify_hash_sum = tally.hash_sum.load();
    job.ctx.log.info("verified: " + plural(report.output_records, "record") + " in order, matching the input");
  }
  const Stopwatch commit_time;
  report.output_stored_bytes = report.output_bytes;
  if (job.encoder) {
    job.encoder->finish();
    report.output_stored_bytes = job.encoder->bytes_out();
  }
  meter.stop();
  report.chunk_records = job.plan.chunk_records;
  output.prepare_commit(job.ctx.config.fsync);
  if (job.ctx.before_commit) job.ctx.before_commit(report);
  output.publish();
  report.add_phase("commit", commit_time.seconds());
  job.ctx.log.info("runs: " + std::to_string(report.runs));
  job.ctx.log.info("merge passes: " + std::to_string(report.merge_passes));
}

}  // namespace

SortReport external_sort(const SortContext& ctx, const RunOptions& run) {
  // Outlives the locals below: the temp directory goes last.
  SortJob job(ctx);
  const SortConfig& config = ctx.config;
  InputTally tally;
  tally.hash_records = config.verify;
  job.tally = &tally;
  // First, so that waiting for a slow producer on a pipe shows too.
  ProgressMeter meter(ProgressMeter::wanted(config.progress));
  job.meter = &meter;
  meter.phase("reading", 0, &tally.stored_bytes);
  // Empty directories of gsorts killed by SIGKILL (io/temp/stale_temp_dirs.h).
  remove_stale_temp_dirs(config.temp_dir);
  InputSet inputs(config.inputs, job.rs, &tally, config.page_cache == PageCacheUse::kDrop);
  if (run.consume_inputs) inputs.consume_as_read();
  OutputTarget output(run.output);
  if (config.compress_output) {
    job.encoder = make_output_encoder(config.output_format, output.file(), config.output_level, config.threads,
                                      ctx.pool);
  }
  std::unique_ptr<OutputCheck> check;
  if (config.verify) check = std::make_unique<OutputCheck>(ctx.layout, config.unique, ctx.pool);
  job.check = check.get();
  plan_sort(job, inputs);
  sort_or_merge(job, inputs, output);
  finish(job, tally, check.get(), meter, output);
  return job.report;
}

}  // namespace gsort
