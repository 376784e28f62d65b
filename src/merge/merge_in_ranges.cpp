// RunMerges' final merge in key ranges (merge_passes.h, parallel_merge.h).
#include <memory>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/merge/final_merge_choice.h"
#include "src/merge/merge_passes.h"
#include "src/merge/parallel_merge.h"

namespace gsort {
namespace {

// The steps around parallel_merge, timed for -v.
struct RangeSteps {
  double open_s = 0, map_s = 0, check_s = 0, close_s = 0;
};

void report_ranges(const Log& log, const ParallelMergeResult& r, const ParallelMergePlan& plan, size_t runs,
                   const RangeSteps& steps, SortReport& report) {
  report.add_duration("merge: cutting into ranges", r.split_s);
  report.add_duration("merge: ranges", r.merge_s);
  if (r.close_s > 0) report.add_duration("merge: closing -u gaps", r.close_s);
  report.add_duration("merge: checking output", steps.check_s);
  log.info(ranges_line_start(r.ranges, runs, std::min<size_t>(plan.workers, r.ranges), plan.buffer_bytes) + ": cut " +
           seconds_text(r.split_s) + ", merged " +
           seconds_text(r.merge_s) + " (threads busy " + seconds_text(r.busy_s + r.present_s) + ": reading runs " +
           seconds_text(r.read_s) + "; freed in the background in " + seconds_text(r.release_s) +
           ", waited for that " + seconds_text(r.release_wait_s) + ")" +
           (r.close_s > 0 ? ", -u gaps closed " + seconds_text(r.close_s) : "") + ", checked " +
           seconds_text(steps.check_s) + "; runs opened in " + seconds_text(steps.open_s) + ", output mapped in " +
           seconds_text(steps.map_s) + ", runs closed in " + seconds_text(steps.close_s));
}

}  // namespace

RunMerges::RangeViews RunMerges::view_runs(std::vector<PendingSource>& group) {
  RangeViews opened;
  opened.views = runs_.view(group, setup_.pool);
  for (const auto& v : opened.views) {
    opened.runs.push_back(v.get());
    opened.records += v->size();
  }
  return opened;
}

ParallelMergeOptions RunMerges::range_merge_options() {
  ParallelMergeOptions options;
  options.budget_bytes = setup_.windows.usable_bytes;
  options.bytes_read = &merged_bytes_;
  options.release_runs = true;
  return options;
}

bool RunMerges::merge_in_ranges(std::vector<PendingSource>& group, FinalOutput& out, uint64_t bytes) {
  const long forced = forced_final_merge_ranges();
  if (forced < 0 || bytes == 0 || !out.may_map_whole()) return false;
  for (const PendingSource& p : group) {
    if (p.is_input() || p.is_held()) return false;
  }
  if (runs_.through_program()) {
    merge_in_batches_because(setup_.log, "runs are read through --compress-program, in order");
    return false;
  }
  RangeSteps steps;
  Stopwatch step;
  RangeViews opened = view_runs(group);
  steps.open_s = step.lap();
  const std::vector<const RunView*>& runs = opened.runs;
  if (opened.records * out.record_size() != bytes) {
    throw Error("internal error: the runs hold " + std::to_string(opened.records) + " records, " +
                std::to_string(bytes / out.record_size()) + " were sorted");
  }
  // What the ranges did not free goes after the commit.
  ParallelMergeOptions options = range_merge_options();
  options.ranges = forced > 0 ? static_cast<size_t>(forced) : 0;
  const ParallelMergePlan plan = plan_parallel_merge(runs, setup_.pool.size(), options);
  if (merge_in_batches_because(setup_.log, plan.refusal)) return false;
  step.lap();
  const std::unique_ptr<MappedRecords> target = out.mapped_records(bytes);
  steps.map_s = step.lap();
  if (!target) {
    merge_in_batches_because(setup_.log, "the output is not mapped");
    return false;
  }
  options.unique_by = target->unique_by();
  options.sum_dropped = target->counts_dropped();
  const ParallelMergeResult r = parallel_merge(runs, setup_.layout, setup_.pool, plan, options, target->data());
  target->dropped(r.dropped, r.dropped_hash_sum);
  step.lap();
  target->finish(r.kept);
  steps.check_s = step.lap();
  opened.views.clear();
  steps.close_s = step.lap();
  report_ranges(setup_.log, r, plan, group.size(), steps, report_);
  report_.output_records += r.kept;
  return true;
}

}  // namespace gsort
