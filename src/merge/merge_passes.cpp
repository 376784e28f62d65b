#include "src/merge/merge_passes.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "io/file/record_source.h"
#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/core/stopwatch.h"
#include "src/merge/merge_in_passes.h"
#include "src/merge/run_merger.h"
#include "src/merge/run_output.h"

namespace gsort {
namespace {

void report_merge(const Log& log, const MergeTimings& timings, size_t sources, uint64_t window_records,
                  SortReport& report) {
  report.add_duration("merge: prepare batches", timings.prepare_s);
  report.add_duration("merge: order", timings.order_s);
  report.add_duration("merge: gather+write", timings.output_s);
  report.add_duration("merge: waiting for batches", timings.wait_s);
  report.add_duration("merge: setting up", timings.setup_s);
  report.merge_batches += timings.batches;
  log.info("merged " + plural(sources, "source") + " in " + std::to_string(timings.batches) +
           (timings.batches == 1 ? " batch" : " batches") + " of up to " + plural(timings.largest_batch, "record") +
           " (windows of " + plural(window_records, "record") + ")");
}

}  // namespace

RunMerges::RunMerges(MergeSetup setup, TempRuns& runs, SortReport& report)
    : setup_(std::move(setup)), runs_(runs), report_(report) {}

// Merges the sources of one group into `out`, then closes (and so frees)
// their run files. Inputs of --merge are opened here, and only here.
void RunMerges::merge_group(std::vector<PendingSource>& group, OutputWriter& out) {
  std::vector<std::unique_ptr<RecordSource>> sources;
  bool reads_inputs = false;
  MergeWindows windows = setup_.windows;
  bool reads_held = false;
  for (PendingSource& p : group) {
    reads_inputs |= p.is_input();
    reads_held |= p.is_held();
    windows.usable_bytes -= std::min(windows.usable_bytes, p.host_bytes);
    sources.push_back(p.is_input() ? p.open_input() : p.is_held() ? p.open_held() : runs_.open(p));
  }
  // The host's ordering needs its own space per record (its entries).
  if (reads_held) windows.bytes_per_record += host_order().host_bytes_per_record();
  MergeOptions options;
  options.bytes_read = &merged_bytes_;
  options.window_records = windows.records_per_source(sources.size());
  // The inputs of --merge are checked; runs gsort wrote itself need not be.
  options.verify_sources_sorted = reads_inputs;
  MergeTimings timings;
  const uint64_t merged =
      merge_runs(sources, setup_.layout, reads_held ? host_order() : setup_.backend, setup_.pool, options, out, &timings);
  report_merge(setup_.log, timings, sources.size(), options.window_records, report_);
  // --merge: every input record passes through exactly one merge that
  // reads inputs, so this counts each once.
  if (reads_inputs) report_.input_records += merged;
  const Stopwatch removing;
  sources.clear();
  for (PendingSource& p : group) runs_.remove(p);
  report_.add_phase("merge: removing runs", removing.seconds());
}

SortBackend& RunMerges::host_order() {
  if (!host_order_) host_order_ = make_cpu_backend(setup_.layout, setup_.pool);
  return *host_order_;
}

PendingSource RunMerges::merge_to_run(std::vector<PendingSource> group) {
  int level = 0;
  for (const PendingSource& p : group) level = std::max(level, p.level);
  PendingSource merged;
  if (setup_.before_run) setup_.before_run();
  if (!merge_to_run_in_ranges(group, merged)) {
    RunOutput out(runs_, "merged", merged);
    merge_group(group, out.records());
    count_run(out.finish(), report_);
  }
  merged.level = level + 1;
  deepest_level_ = std::max(deepest_level_, merged.level);
  return merged;
}

std::vector<PendingSource> RunMerges::merge_all(std::vector<PendingSource> pending, FinalOutput& out,
                                               ProgressMeter& meter, uint64_t progress_total) {
  Stopwatch pass_time;
  pending = merge_in_passes(
      std::move(pending), *this,
      [&](int pass) {
        pass_time.restart();
        meter.phase("merge pass " + std::to_string(pass), progress_total, &merged_bytes_);
      },
      [&](int pass, size_t left) {
        report_.add_phase("merge passes", pass_time.seconds());
        setup_.log.info("merge pass " + std::to_string(pass) + ": " + plural(left, "run") + " left");
      });
  before_final_merge(pending);
  const Stopwatch t;
  meter.phase(deepest_level_ > 0 ? "final merge" : "merging", progress_total, &merged_bytes_);
  const bool in_ranges = merge_in_ranges(pending, out, progress_total);
  if (!in_ranges) {
    std::unique_ptr<OutputWriter> writer = out.writer(progress_total);
    merge_group(pending, *writer);
    const Stopwatch flushing;
    writer->finish();
    report_.add_phase("merge: flushing output", flushing.seconds());
    report_.output_records += writer->records_written();
  }
  // The most merges a record went through: early ones (run_stack.h), the
  // passes above, and this one.
  report_.merge_passes = static_cast<uint64_t>(deepest_level_) + 1;
  report_.add_phase("final merge", t.seconds());
  if (!in_ranges) pending.clear();
  return pending;
}

}  // namespace gsort
