#include "src/lines/sort_lines.h"

#include <deque>

#include "io/temp/stale_temp_dirs.h"
#include "src/core/stopwatch.h"
#include "src/lines/line_check.h"
#include "src/pipeline/direct_write.h"
#include "src/lines/line_job.h"
#include "src/lines/sort/line_sorter.h"
#include "src/merge/merge_limits.h"

namespace gsort {

LineJob::LineJob(const SortConfig& c, ThreadPool& p, const Log& l)
    : config(c),
      pool(p),
      log(l),
      spec(make_line_spec(c.lines, c.reverse, c.unique)),
      compare(spec),
      plan(plan_lines(c.memory_bytes, 0, 0, c.inputs.size(), c.batch_size, free_descriptors() / 2)) {}

LineRunStore& LineJob::runs() {
  if (!runs_) {
    temp_ = std::make_unique<TempDir>(config.temp_dir);
    log.info("temporary directory: " + temp_->path());
    RunCompression compression;
    compression.enabled = config.compress_temp == TempCompression::kOn;
    compression.level = config.temp_level;
    compression.pool = &pool;
    runs_ = std::make_unique<LineRunStore>(*temp_, compression, new_job_id(), plan.block_bytes, spec.eol, unique_by(),
                                           verify.get());
  }
  return *runs_;
}

std::unique_ptr<LineWriter> LineJob::destination_writer(OutputTarget& output) {
  auto out = std::make_unique<LineWriter>(destination_sink(output, encoder.get()), plan.block_bytes, spec.eol,
                                          unique_by());
  out->count_bytes(&written);
  out->verify_with(verify.get());
  return out;
}

namespace {

// -m: the inputs, each a source of sorted lines.
void merge_inputs(LineJob& job, std::deque<LineRun>& runs, OutputTarget& output) {
  auto set = std::make_shared<InputSet>(job.config.inputs, 1, &job.tally, false);
  std::vector<LineOpener> sources;
  for (InputSet::Opener& open : set->lazy_sources()) {
    sources.push_back([&job, set, open] {
      auto source = std::make_unique<LineSource>(open(), job.spec.eol, job.plan.source_bytes, job.plan.max_line);
      source->count_into(job.verify.get());
      return source;
    });
  }
  merge_line_sources(job, std::move(sources), runs, output);
  job.report.input_records = job.report.output_records;
}

// The end of a compressed output, and the output put in place.
void commit(LineJob& job, OutputTarget& output, const LinesBeforeCommit& before_commit) {
  const Stopwatch t;
  job.report.input_stored_bytes = job.tally.stored_bytes.load();
  if (job.verify) {
    job.meter->phase("verifying", 0, nullptr);
    job.verify->finish();
    job.report.verified = true;
    job.report.verify_hash_sum = job.verify->input_hash_sum();
    job.log.info("verified: " + std::to_string(job.report.output_records) + " lines in order, matching the input");
  }
  job.report.output_stored_bytes = job.report.output_bytes;
  if (job.encoder) {
    job.encoder->finish();
    job.report.output_stored_bytes = job.encoder->bytes_out();
  }
  job.meter->stop();
  output.prepare_commit(job.config.fsync);
  if (job.runs_made()) job.report.temp_bytes = job.runs().stored_bytes();
  if (before_commit) before_commit(job.report, job.sorter);
  output.publish();
  job.report.add_phase("commit", t.seconds());
}

}  // namespace

LineSortOutcome sort_lines(const SortConfig& config, const RunOptions& run, ThreadPool& pool, const Log& log,
                           const LinesBeforeCommit& before_commit) {
  LineJob job(config, pool, log);
  LineSortOutcome outcome;
  ProgressMeter meter(config.mode == Mode::kCheck && config.check_quiet ? config.progress == ProgressMode::kOn
                                                                        : ProgressMeter::wanted(config.progress));
  job.meter = &meter;
  if (config.mode == Mode::kCheck) {
    meter.phase("checking", 0, nullptr);
    outcome.check = check_sorted_lines(config.inputs.front(), job.compare, job.plan.max_line, nullptr);
    return outcome;
  }
  remove_stale_temp_dirs(config.temp_dir);
  if (config.verify) job.verify = std::make_unique<LineVerify>(job.spec);
  OutputTarget output(run.output);
  if (config.compress_output) {
    job.encoder = make_output_encoder(config.output_format, output.file(), config.output_level, config.threads, pool);
  }
  std::deque<LineRun> runs;  // outlives the merge's sources
  if (config.mode == Mode::kMerge) {
    job.sorter = "merge";
    merge_inputs(job, runs, output);
  } else if (!sort_line_chunks(job, runs, output)) {
    merge_line_sources(job, openers_of(job, runs), runs, output);
  }
  commit(job, output, before_commit);
  outcome.report = job.report;
  outcome.sorter = job.sorter;
  return outcome;
}

}  // namespace gsort
