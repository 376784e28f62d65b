// Merging sorted sources of lines into the destination, in passes when
// they are more than one merge takes, and early when too many runs wait.
#include <algorithm>

#include "src/core/stopwatch.h"
#include "src/lines/job.h"
#include "src/lines/merge_in_ranges.h"
#include "src/merge/group_merger.h"
#include "src/merge/line_merge.h"
#include "src/merge/merge_in_passes.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

constexpr uint64_t kGnuMergeBatch = 16;  // GNU sort's NMERGE, its default --batch-size

std::vector<std::unique_ptr<LineWindow>> open_windows(LineJob& job, std::vector<PendingSource>& group) {
  std::vector<std::unique_ptr<LineWindow>> windows;
  for (PendingSource& source : group) windows.push_back(job.window(source, group.size()));
  return windows;
}

// The group merged into one run of one stream; its runs' files are freed.
// fan_in: the most sources a merge takes (the window it decides the runs'
// compression by).
PendingSource merge_into_run(LineJob& job, std::vector<PendingSource>& group, uint64_t fan_in) {
  // A merge of -m's inputs may write the first run: nothing to sample.
  const TempSettings settings{job.config, job.pool, job.log, job.plan.window_bytes(fan_in)};
  decide_run_compression(settings, SampleFrames{}, job.runs, job.report.temp);
  PendingSource run;
  for (const PendingSource& source : group) run.level = std::max(run.level, source.level + 1);
  std::unique_ptr<LineRunOutput> out = job.run_output(run, 1);
  std::vector<std::unique_ptr<LineWindow>> windows = open_windows(job, group);
  merge_lines(windows, job.compare, out->lines(), job.pool);
  windows.clear();
  job.count_run(out->finish());
  for (PendingSource& source : group) {
    if (!source.is_input()) job.runs.remove(source);
  }
  return run;
}

// The merges of sources into runs: -m's inputs for the waiting runs'
// stack, and the passes before the final merge.
class LineGroupMerges final : public GroupMerger {
 public:
  LineGroupMerges(LineJob& job, const MergeLimits& limits) : job_(job), limits_(limits) {}
  const MergeLimits& limits() const override { return limits_; }
  const Log& log() const override { return job_.log; }
  PendingSource merge_to_run(std::vector<PendingSource> group) override {
    return merge_into_run(job_, group, limits_.fan_in);
  }

 private:
  LineJob& job_;
  const MergeLimits limits_;
};

// -m's runs, where more inputs wait than one merge takes: at most all the
// input, written plain (nothing to sample) unless --compress-temp.
void count_merged_runs(LineJob& job, const MergeLimits& limits, uint64_t inputs, uint64_t bound) {
  job.out->room->count_runs_as_written(merged_inputs_room(inputs, bound, limits.fan_in, limits.max_open_runs),
                                      job.config.compress_temp, false, job.runs);
}

}  // namespace

void merge_line_inputs(LineJob& job, std::vector<PendingSource> inputs, uint64_t bound) {
  // While inputs are merged into runs the output's file, empty, is set
  // aside, and its descriptor serves those merges (GNU sort writes through
  // standard output and holds none for it): the temporary directory's
  // lock, opened with the first run, takes its place in the count.
  LineDestination& out = *job.out;
  const bool may_set_aside = !out.encoder && out.target.can_set_aside();
  // As GNU sort, as many inputs as its default --batch-size are merged at
  // once however small -S is (their windows take 64 KiB or more each).
  const uint64_t memory_fan_in = std::max(job.plan.memory_fan_in, kGnuMergeBatch);
  std::string explain;
  const MergeLimits limits = merge_limits(memory_fan_in, job.config.batch_size, true,
                                          free_descriptors(may_set_aside ? 0 : 1), &explain);
  job.log.info(explain);
  count_merged_runs(job, limits, inputs.size(), bound);
  const bool early = inputs.size() > limits.fan_in;
  LineGroupMerges merges(job, limits);
  RunStack waiting(merges, job.report);
  waiting.push_inputs(std::move(inputs), limits.fan_in, may_set_aside && early ? &out.target : nullptr);
  std::vector<PendingSource> left = waiting.take();
  // The merges each line went through before the last.
  for (const PendingSource& source : left) {
    job.report.merge_passes = std::max<uint64_t>(job.report.merge_passes, static_cast<uint64_t>(source.level));
  }
  merge_line_sources(job, std::move(left), bound, limits);
}

void merge_last_runs(LineJob& job, std::deque<PendingSource>& runs) {
  const size_t n = std::min<size_t>(runs.size(), job.plan.fan_in);
  std::vector<PendingSource> last(n);
  for (size_t i = n; i-- > 0;) {
    last[i] = std::move(runs.back());
    runs.pop_back();
  }
  runs.push_back(merge_into_run(job, last, job.plan.fan_in));
  ++job.report.early_merges;
}

MergeLimits line_merge_limits(const LinePlan& plan) {
  MergeLimits limits;
  limits.fan_in = static_cast<size_t>(plan.fan_in);
  limits.max_open_runs = static_cast<size_t>(plan.waiting_files);
  return limits;
}

void merge_line_sources(LineJob& job, std::vector<PendingSource> sources, uint64_t bound, const MergeLimits& limits) {
  const Stopwatch t;
  job.meter->phase("merging", 0, &job.out->blocks.written_bytes());
  LineGroupMerges merges(job, limits);
  sources = merge_in_passes(std::move(sources), merges, nullptr, [&job](int, size_t) { ++job.report.merge_passes; });
  before_final_merge(sources);
  // The runs job.held holds come after those in files.
  std::vector<std::unique_ptr<MergeRun>> held;
  std::vector<const MergeRun*> held_runs;
  for (size_t r = 0; job.held && r < job.held->runs(); ++r) {
    held.push_back(job.held->run(r));
    held_runs.push_back(held.back().get());
  }
  if (job.held && job.held->on_device()) {
    job.report.device_resident_bytes = job.held->used();
    job.report.device_held_runs = job.held->runs();
  }
  if (!merge_lines_in_ranges(job, sources, held_runs)) {
    // Held runs take no descriptors; a window grows to its longest line.
    const uint64_t n = sources.size() + held.size();
    std::vector<std::unique_ptr<LineWindow>> windows;
    for (PendingSource& source : sources) windows.push_back(job.window(source, n));
    for (size_t r = 0; r < held.size(); ++r) {
      windows.push_back(job.window(read_in_order(*held[r], "run " + std::to_string(r) + " in " + job.held->where()), n));
    }
    std::unique_ptr<LineWriter> out = job.destination_writer(bound);
    merge_lines(windows, job.compare, *out, job.pool);
    out->finish();
    job.report.output_records += out->lines_written();
    job.report.output_bytes += out->bytes_written();
  }
  ++job.report.merge_passes;
  job.report.add_phase("merge", t.seconds());
}

}  // namespace gsort
