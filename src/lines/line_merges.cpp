#include "src/lines/line_merges.h"

#include <algorithm>

#include "src/core/stopwatch.h"
#include "src/lines/merge_in_ranges.h"
#include "src/merge/line_merge.h"
#include "src/merge/merge_in_passes.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

constexpr uint64_t kGnuMergeBatch = 16;  // GNU sort's NMERGE, its default --batch-size

// -m's runs, where more inputs wait than one merge takes: at most all the
// input, written plain (nothing to sample) unless --compress-temp.
void count_merged_runs(const LineMerges& merges, LineDestination& out, const MergeLimits& limits, uint64_t inputs,
                       uint64_t bound) {
  out.room->count_runs_as_written(merged_inputs_room(inputs, bound, limits.fan_in, limits.max_open_runs),
                                  merges.context().config.compress_temp, false, merges.runs());
}

}  // namespace

std::unique_ptr<LineWindow> LineMerges::window(PendingSource& source, uint64_t sources) const {
  std::unique_ptr<LineWindow> w = window(source.is_input() ? source.open_input() : runs_.open(source), sources);
  if (source.is_input()) w->count_into(verify_);
  return w;
}

std::unique_ptr<LineWindow> LineMerges::window(std::unique_ptr<RecordSource> from, uint64_t sources) const {
  // No larger than the source, where its size is known (a terminator may
  // be added): many small inputs of -m are merged in many small merges.
  uint64_t bytes = plan_.window_bytes(sources);
  if (from->size_hint() > 0) bytes = std::min(bytes, from->size_hint() + 1);
  const uint64_t lines = std::min(plan_.window_lines(sources), bytes);
  return std::make_unique<LineWindow>(std::move(from), ctx_.eol(), bytes, lines, plan_.max_line);
}

std::unique_ptr<LineRunOutput> LineMerges::run_output(PendingSource& run, unsigned streams) const {
  return std::make_unique<LineRunOutput>(runs_, run, streams, ctx_.eol(), ctx_.unique_by(), verify_);
}

void LineMerges::count_run(const LineRunFigures& figures) const {
  report_.temp_bytes += figures.file_bytes;
  report_.temp_record_bytes += figures.bytes;
}

PendingSource LineMerges::merge_into_run(std::vector<PendingSource>& group, uint64_t fan_in) const {
  // A merge of -m's inputs may write the first run: nothing to sample.
  const TempSettings settings{ctx_.config, ctx_.pool, ctx_.log, plan_.window_bytes(fan_in)};
  decide_run_compression(settings, SampleFrames{}, runs_, report_.temp);
  PendingSource run;
  for (const PendingSource& source : group) run.level = std::max(run.level, source.level + 1);
  std::unique_ptr<LineRunOutput> out = run_output(run, 1);
  std::vector<std::unique_ptr<LineWindow>> windows;
  for (PendingSource& source : group) windows.push_back(window(source, group.size()));
  merge_lines(windows, ctx_.compare, out->lines(), ctx_.pool);
  windows.clear();
  count_run(out->finish());
  for (PendingSource& source : group) {
    if (!source.is_input()) runs_.remove(source);
  }
  return run;
}

void merge_line_inputs(const LineMerges& merges, LineDestination& out, ProgressMeter& meter,
                       std::vector<PendingSource> inputs, uint64_t bound) {
  // While inputs are merged into runs the output's file, empty, is set
  // aside, and its descriptor serves those merges (GNU sort writes through
  // standard output and holds none for it): the temporary directory's
  // lock, opened with the first run, takes its place in the count.
  const bool may_set_aside = !out.encoder && out.target.can_set_aside();
  // As GNU sort, as many inputs as its default --batch-size are merged at
  // once however small -S is (their windows take 64 KiB or more each).
  const uint64_t memory_fan_in = std::max(merges.plan().memory_fan_in, kGnuMergeBatch);
  std::string explain;
  const MergeLimits limits = merge_limits(memory_fan_in, merges.context().config.batch_size, true,
                                          free_descriptors(may_set_aside ? 0 : 1), &explain);
  merges.context().log.info(explain);
  count_merged_runs(merges, out, limits, inputs.size(), bound);
  const bool early = inputs.size() > limits.fan_in;
  LineGroupMerges groups(merges, limits);
  RunStack waiting(groups, merges.report());
  waiting.push_inputs(std::move(inputs), limits.fan_in, may_set_aside && early ? &out.target : nullptr);
  merge_line_sources(merges, out, nullptr, meter, waiting.take(), bound, limits);
}

MergeLimits line_merge_limits(const LinePlan& plan) {
  MergeLimits limits;
  limits.fan_in = static_cast<size_t>(plan.fan_in);
  limits.max_open_runs = static_cast<size_t>(plan.waiting_files);
  return limits;
}

void merge_line_sources(const LineMerges& merges, LineDestination& out, HeldRuns* held, ProgressMeter& meter,
                        std::vector<PendingSource> sources, uint64_t bound, const MergeLimits& limits) {
  const Stopwatch t;
  SortReport& report = merges.report();
  meter.phase("merging", 0, &out.blocks.written_bytes());
  LineGroupMerges groups(merges, limits);
  sources = merge_in_passes(std::move(sources), groups, nullptr, nullptr);
  before_final_merge(sources);
  // The most merges a line went through: early ones (run_stack.h), the
  // passes above, and this one, as the records count them.
  int deepest = 0;
  for (const PendingSource& source : sources) deepest = std::max(deepest, source.level);
  report.merge_passes = static_cast<uint64_t>(deepest) + 1;
  // The held runs come after those in files.
  std::vector<std::unique_ptr<MergeRun>> held_runs;
  std::vector<const MergeRun*> held_views;
  for (size_t r = 0; held && r < held->runs(); ++r) {
    held_runs.push_back(held->run(r));
    held_views.push_back(held_runs.back().get());
  }
  if (held && held->on_device()) {
    report.device_resident_bytes = held->used();
    report.device_held_runs = held->runs();
  }
  if (!merge_lines_in_ranges(merges, out, sources, held_views)) {
    // Held runs take no descriptors; a window grows to its longest line.
    const uint64_t n = sources.size() + held_runs.size();
    std::vector<std::unique_ptr<LineWindow>> windows;
    for (PendingSource& source : sources) windows.push_back(merges.window(source, n));
    for (size_t r = 0; r < held_runs.size(); ++r) {
      windows.push_back(merges.window(read_in_order(*held_runs[r], "run " + std::to_string(r) + " in " + held->where()), n));
    }
    std::unique_ptr<LineWriter> writer = out.writer(merges.context(), bound, merges.verify());
    merge_lines(windows, merges.context().compare, *writer, merges.context().pool);
    writer->finish();
    report.output_records += writer->lines_written();
    report.output_bytes += writer->bytes_written();
  }
  report.add_phase("merge", t.seconds());
}

}  // namespace gsort
