// RunMerges' merges into a run in key ranges (merge_passes.h,
// parallel_merge.h): the new run's file is reserved and mapped whole, each
// range merges into its place, and the run is finished in place
// (io/run/run_in_place.h).
#include <memory>
#include <string>
#include <vector>

#include "io/output/mapped_output_range.h"
#include "io/run/run_in_place.h"
#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/merge/merge_passes.h"
#include "src/merge/parallel_merge.h"
#include "src/merge/run_output.h"

namespace gsort {

bool RunMerges::merge_to_run_in_ranges(std::vector<PendingSource>& group, PendingSource& merged) {
  // Runs written past the page cache, in zstd frames or through a program
  // are written in order, by the run merger.
  const RunStorage& storage = runs_.storage();
  if (storage.paced || storage.compression.enabled || runs_.through_program()) return false;
  for (const PendingSource& p : group) {
    if (p.is_input() || p.is_held()) return false;
  }
  const Stopwatch t;
  RangeViews opened = view_runs(group);
  const std::vector<const RunView*>& runs = opened.runs;
  const uint64_t records = opened.records;
  const ParallelMergeOptions options = range_merge_options();
  const ParallelMergePlan plan = plan_parallel_merge(runs, setup_.pool.size(), options);
  if (!plan.refusal.empty()) return false;
  const uint32_t rs = setup_.layout.record_size();
  merged.segments.resize(1);
  RunSegment& segment = merged.segments.front();
  File file = runs_.new_segment("merged", segment);
  const uint64_t bytes = plain_run_bytes(records, rs);
  std::unique_ptr<MappedOutputRange> target = MappedOutputRange::map(file, 0, bytes);
  if (!target) {
    segment.file.file = std::move(file);
    runs_.remove(merged);
    merged.segments.clear();
    return false;
  }
  const ParallelMergeResult r =
      parallel_merge(runs, setup_.layout, setup_.pool, plan, options, target->data() + sizeof(RunHeader));
  if (r.kept != records) {
    throw Error("internal error: a merge into a run kept " + std::to_string(r.kept) + " of " +
                std::to_string(records) + " records");
  }
  finish_plain_run(target->data(), records, rs, segment.identity, setup_.pool);
  target->finish(false, &setup_.pool);
  segment.file.file = std::move(file);
  runs_.sealed(segment);
  opened = RangeViews();  // the views go before their runs' files
  runs_.remove(group, setup_.pool);
  count_run(RunFigures{bytes, records * rs}, report_);
  report_.add_duration("merge into runs: ranges", r.merge_s);
  setup_.log.info("merged " + plural(group.size(), "run") + " into one in " + plural(r.ranges, "range") + " in " +
                  seconds_text(t.seconds()));
  return true;
}

}  // namespace gsort
