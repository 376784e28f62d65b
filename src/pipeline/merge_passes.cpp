#include "src/pipeline/merge_passes.h"

#include <algorithm>
#include <memory>
#include <string>

#include "io/file/record_source.h"
#include "io/run/run_file.h"
#include "io/run/run_segments.h"
#include "src/core/stopwatch.h"
#include "src/merge/run_merger.h"
#include "src/pipeline/run_output.h"
#include "src/pipeline/temp_compression.h"

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

// A spilled run as a merge source: its one segment, or its segments read
// one after another. Each is punched out as it is read.
std::unique_ptr<RecordSource> open_run(SortJob& job, PendingSource& run) {
  std::vector<std::unique_ptr<RunReader>> readers;
  for (RunSegment& segment : run.segments) {
    readers.push_back(
        std::make_unique<RunReader>(std::move(segment.file.file), job.rs, segment.identity, &job.decoders, true));
  }
  if (readers.size() == 1) return std::move(readers.front());
  return std::make_unique<RunSegmentsReader>(std::move(readers));
}

// Merges the sources of one group into `out`, then closes (and so frees)
// their run files. Inputs of --merge are opened here, and only here.
void merge_group(SortJob& job, std::vector<PendingSource>& group, OutputWriter& out) {
  const SortContext& ctx = job.ctx;
  std::vector<std::unique_ptr<RecordSource>> sources;
  bool reads_inputs = false;
  for (PendingSource& p : group) {
    reads_inputs |= p.is_input();
    sources.push_back(p.is_input() ? p.open_input() : open_run(job, p));
  }
  MergeOptions options;
  options.bytes_read = &job.merged_bytes;
  options.window_records = merge_window_records(job.plan, job.budget, job.rs, ctx.backend.host_bytes_per_record(),
                                                sources.size());
  // The inputs of --merge are checked; runs gsort wrote itself need not be.
  options.verify_sources_sorted = reads_inputs;
  MergeTimings timings;
  const uint64_t merged = merge_runs(sources, ctx.layout, ctx.backend, ctx.pool, options, out, &timings);
  report_merge(job, timings, sources.size(), options.window_records);
  // --merge: every input record passes through exactly one merge that
  // reads inputs, so this counts each once.
  if (reads_inputs) job.report.input_records += merged;
  const Stopwatch removing;
  sources.clear();
  for (PendingSource& p : group) {
    for (RunSegment& segment : p.segments) job.temp_dir().remove(segment.file);
  }
  job.report.add_phase("merge: removing runs", removing.seconds());
}

}  // namespace

PendingSource merge_to_run(SortJob& job, std::vector<PendingSource> group) {
  int level = 0;
  for (const PendingSource& p : group) level = std::max(level, p.level);
  PendingSource merged;
  decide_run_compression(job, nullptr, nullptr, 0);  // --merge: nothing was sampled
  RunOutput out(job, "merged", merged);
  merge_group(job, group, out.records());
  count_run(job, out.finish());
  merged.level = level + 1;
  job.deepest_level = std::max(job.deepest_level, merged.level);
  return merged;
}

namespace {

// One pass that leaves at most fan-in runs. When fewer than 2 x fan-in runs
// are left, merging just enough of the first runs into one leaves fan-in
// runs for the final pass, and the rest are not rewritten. Otherwise every
// group of fan-in runs merges.
std::vector<PendingSource> merge_pass(SortJob& job, std::vector<PendingSource> pending) {
  std::vector<PendingSource> next;
  const size_t fan_in = job.limits.fan_in;
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
    next.push_back(merge_to_run(job, std::move(group)));
  }
  return next;
}

}  // namespace

void merge_all(SortJob& job, std::vector<PendingSource> pending, OutputTarget& output) {
  SortReport& report = job.report;
  if (job.ctx.config.mode != Mode::kMerge && report.input_records > 0) {
    job.progress_total = report.input_records * job.rs;
  }
  int passes = 0;
  while (pending.size() > job.limits.fan_in) {
    const Stopwatch t;
    job.meter->phase("merge pass " + std::to_string(++passes), job.progress_total, &job.merged_bytes);
    pending = merge_pass(job, std::move(pending));
    report.add_phase("merge passes", t.seconds());
    job.ctx.log.info("merge pass " + std::to_string(passes) + ": " + plural(pending.size(), "run") + " left");
  }
  const Stopwatch t;
  job.meter->phase(job.deepest_level > 0 ? "final merge" : "merging", job.progress_total, &job.merged_bytes);
  if (job.report.temp.writeback_paced) output.file().pace_writeback();  // does nothing for a pipe
  std::unique_ptr<OutputWriter> out = job.destination_writer(output);
  merge_group(job, pending, *out);
  const Stopwatch flushing;
  out->finish();
  report.add_phase("merge: flushing output", flushing.seconds());
  report.output_records += out->records_written();
  // The most merges a record went through: early ones (run_stack.h), the
  // passes above, and this one.
  report.merge_passes = static_cast<uint64_t>(job.deepest_level) + 1;
  report.add_phase("final merge", t.seconds());
}

}  // namespace gsort
