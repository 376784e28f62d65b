#include "src/pipeline/merge_passes.h"

#include <algorithm>
#include <memory>
#include <string>

#include "io/record_source.h"
#include "io/run_file.h"
#include "src/core/stopwatch.h"
#include "src/merge/run_merger.h"
#include "src/pipeline/run_output.h"

namespace gsort {
namespace {

void report_merge(SortJob& job, const MergeTimings& timings, size_t sources, uint64_t window_records) {
  SortReport& report = job.report;
  report.add_duration("merge: prepare batches", timings.prepare_s);
  report.add_duration("merge: order", timings.order_s);
  report.add_duration("merge: gather+write", timings.output_s);
  report.add_duration("merge: waiting for batches", timings.wait_s);
  report.add_duration("merge: setting up", timings.setup_s);
  report.merge_batches += timings.batches;
  job.ctx.log.info("merged " + plural(sources, "source") + " in " + std::to_string(timings.batches) +
                   (timings.batches == 1 ? " batch" : " batches") + " of up to " +
                   plural(timings.largest_batch, "record") + " (windows of " + plural(window_records, "record") +
                   ")");
}

// Merges the sources of one group into `out`, then deletes their run files.
void merge_group(SortJob& job, std::vector<PendingSource>& group, OutputWriter& out) {
  const SortContext& ctx = job.ctx;
  std::vector<std::unique_ptr<RecordSource>> sources;
  bool reads_inputs = false;
  for (PendingSource& p : group) {
    reads_inputs |= p.open != nullptr;
    sources.push_back(p.open ? std::move(p.open) : std::make_unique<RunReader>(p.run_path, job.rs, &job.decoders, true));
  }
  MergeOptions options;
  options.bytes_read = &job.merged_bytes;
  options.window_records = merge_window_records(job.plan, ctx.config.memory_bytes, job.rs,
                                                ctx.backend.host_bytes_per_record(), sources.size());
  options.verify_sources_sorted = ctx.config.mode == Mode::kMerge;
  MergeTimings timings;
  const uint64_t merged = merge_runs(sources, ctx.layout, ctx.backend, ctx.pool, options, out, &timings);
  report_merge(job, timings, sources.size(), options.window_records);
  if (reads_inputs) {
    job.report.input_records += merged;
    job.report.input_bytes += merged * job.rs;
  }
  const Stopwatch removing;
  sources.clear();
  for (PendingSource& p : group) {
    if (!p.run_path.empty()) job.temp_dir().remove(p.run_path, p.run_slot);
  }
  job.report.add_phase("merge: removing runs", removing.seconds());
}

// One pass that leaves at most fan-in runs. When fewer than 2 x fan-in runs
// are left, merging just enough of the first runs into one leaves fan-in
// runs for the final pass, and the rest are not rewritten. Otherwise every
// group of fan-in runs merges.
std::vector<PendingSource> merge_pass(SortJob& job, std::vector<PendingSource> pending) {
  std::vector<PendingSource> next;
  const size_t fan_in = job.plan.fan_in;
  const bool last_but_one = pending.size() < 2 * fan_in;
  const size_t first_group = last_but_one ? pending.size() - fan_in + 1 : fan_in;
  for (size_t begin = 0; begin < pending.size();) {
    const size_t width = begin == 0 ? first_group : (last_but_one ? 1 : fan_in);
    const size_t end = std::min<size_t>(pending.size(), begin + width);
    if (end - begin == 1) {
      next.push_back(std::move(pending[begin]));
      begin = end;
      continue;
    }
    std::vector<PendingSource> group;
    for (size_t i = begin; i < end; ++i) group.push_back(std::move(pending[i]));
    begin = end;
    PendingSource merged;
    RunOutput out(job, "merged", merged);
    merge_group(job, group, out.records());
    out.finish();
    next.push_back(std::move(merged));
  }
  return next;
}

}  // namespace

void merge_all(SortJob& job, std::vector<PendingSource> pending, OutputTarget& output) {
  SortReport& report = job.report;
  if (report.input_records > 0) job.progress_total = report.input_records * job.rs;
  while (pending.size() > job.plan.fan_in) {
    const Stopwatch t;
    job.meter->phase("merge pass " + std::to_string(report.merge_passes + 1), job.progress_total, &job.merged_bytes);
    pending = merge_pass(job, std::move(pending));
    ++report.merge_passes;
    report.add_phase("merge passes", t.seconds());
    job.ctx.log.info("merge pass " + std::to_string(report.merge_passes) + ": " + plural(pending.size(), "run") +
                     " left");
  }
  const Stopwatch t;
  job.meter->phase(report.merge_passes > 0 ? "final merge" : "merging", job.progress_total, &job.merged_bytes);
  std::unique_ptr<OutputWriter> out = job.destination_writer(output);
  merge_group(job, pending, *out);
  const Stopwatch flushing;
  out->finish();
  report.add_phase("merge: flushing output", flushing.seconds());
  report.output_records += out->records_written();
  ++report.merge_passes;
  report.add_phase("final merge", t.seconds());
}

}  // namespace gsort
