#include "src/lines/merge_in_ranges.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/merge/final_merge_choice.h"
#include "src/merge/line_range_cut.h"
#include "src/merge/line_unit.h"
#include "src/merge/merge_cut_ranges.h"
#include "src/merge/ordered_ranges.h"
#include "src/merge/parallel_merge.h"
#include "src/merge/ranges_in_place.h"

namespace gsort {
namespace {

std::string refusal(const LineMerges& merges) {
  if (merges.verify()) return "--verify counts the lines as the batches go";
  if (merges.runs().through_program()) return "runs are read through --compress-program, in order";
  return "";
}

// A worker's merge of the ranges of `runs`, made once per thread.
MergeRange range_merge(const LineContext& ctx, const std::vector<const MergeRun*>& runs, const MergeRanges& ranges,
                       const ParallelMergePlan& plan) {
  RangeWorkerOptions options;
  options.buffer_bytes = plan.buffer_bytes;
  auto worker = std::make_shared<LineRangeWorker>(runs, LineUnit(ctx.compare, ctx.eol()), options);
  return [&ranges, worker](size_t p, uint8_t* out) {
    return worker->merge(ranges.cuts[p], ranges.cuts[p + 1], out, nullptr);
  };
}

// Every range merged into out on the plan's workers
// (src/merge/merge_cut_ranges.h, as the records'); runs in files (views
// not empty) freed behind them, from the last range to the first. Under
// -u the ranges hold whole keys and are moved together after.
CutRangesResult merge_ranges(const LineContext& ctx, LineDestination& dest, const std::vector<const MergeRun*>& runs,
                          const std::vector<const RunView*>& views, const MergeRanges& ranges,
                          const ParallelMergePlan& plan, uint64_t budget, uint8_t* out) {
  CutRangesOptions options;
  options.workers = plan.workers;
  options.worker.buffer_bytes = plan.buffer_bytes;
  options.worker.unique = ctx.config.unique;
  options.release = views;
  options.drop_written = true;
  options.written = &dest.blocks.written_bytes();
  options.close_bytes = budget;
  const LineUnit unit(ctx.compare, ctx.eol());
  return merge_cut_ranges(ctx.pool, runs, ranges, 1, unit, options, out);
}

// Every range merged on the plan's workers, first to last, into slots of
// `memory` bytes, and written in order to the destination's stream. The
// runs' files stay whole until the merge ends: BackgroundRelease frees
// tails, which a merge from the first range reads last.
CutRangesResult stream_ranges(const LineContext& ctx, LineDestination& dest, const std::vector<const MergeRun*>& runs,
                           const MergeRanges& ranges,
                           const ParallelMergePlan& plan, uint64_t memory, std::string* how) {
  const size_t n = ranges.ranges();
  std::vector<uint64_t> sizes(n);
  for (size_t p = 0; p < n; ++p) sizes[p] = ranges.records_before(p + 1) - ranges.records_before(p);
  RangesTally tally(n);
  const auto make_filler = [&]() -> FillRange {
    const MergeRange merge = range_merge(ctx, runs, ranges, plan);
    return [&, merge](size_t p, uint8_t* out) {
      const Stopwatch merging;
      const RangeResult r = merge(p, out);
      tally.record(p, r, sizes[p], false, merging.seconds());
    };
  };
  const OrderedRangesFigures o = write_ranges_in_order(ctx.pool, plan.workers, sizes, memory, make_filler,
                                                       dest.blocks.stream(), &dest.blocks.written_bytes());
  *how = ", written in order through one stream from " + plural(o.slots, "slot") + " of " +
         std::to_string(o.slot_bytes >> 10) + " KiB (the writer waited " + seconds_text(o.write_wait_s) + ")";
  const RangeResult sum = tally.sum();
  CutRangesResult f;
  f.busy_s = tally.busy_s();
  f.read_s = sum.read_s;
  f.kept = sum.kept;
  f.bytes = sum.bytes;
  return f;
}

// The memory a streamed merge's slots take of the budget, and the ranges
// that give a slot to each worker and the writer, about (a range larger
// than its share leaves a worker idle; more ranges make a longer cut).
constexpr uint64_t kStreamShare = 4;     // a quarter of the budget
constexpr size_t kMostStreamRanges = 1024;  // each range costs a cut of every run
constexpr size_t kLeastStreamThreads = 4;
size_t stream_ranges_wanted(uint64_t bytes, uint64_t memory, unsigned workers, size_t planned) {
  const uint64_t range = std::max<uint64_t>(memory / (uint64_t{workers} + 2), uint64_t{1} << 20);
  return std::clamp<size_t>(static_cast<size_t>(bytes / range + 1), planned, std::max(planned, kMostStreamRanges));
}

// The ranges' plan, cut and merge of `runs` into the destination (the
// first of them in files, `views`): mapped whole, or through its stream
// where it cannot be mapped. False (said under -v) where the plan or the
// mapping declines.
bool merge_runs(const LineMerges& merges, LineDestination& dest, const std::vector<const MergeRun*>& runs,
                const std::vector<const RunView*>& views, size_t forced, double open_s) {
  const LineContext& ctx = merges.context();
  SortReport& report = merges.report();
  Stopwatch step;
  uint64_t bytes = 0;
  for (const MergeRun* r : runs) bytes += r->size();
  std::vector<MergeRunShape> shapes;
  for (const MergeRun* r : runs) {
    shapes.push_back(MergeRunShape{r->size(), r->least_buffer_bytes(), r->index_bytes(), r->compressed()});
  }
  const bool mapped = dest.blocks.may_map_whole();
  // A stream is written range after range as each is merged: -u's ranges,
  // shorter than their room, would leave gaps in it.
  if (!mapped && ctx.config.unique) {
    merge_in_batches_because(ctx.log, "-u into a stream drops lines as the batches go");
    return false;
  }
  // Into a stream, the ranges' workers share the cores with the writer (and
  // a pipe's reader): on 2 cores, 2 GB through `| cat` took 4.3-6.1 s
  // merging in ranges against 3.7 s in batches.
  if (!mapped && !forced && ctx.pool.size() < kLeastStreamThreads) {
    merge_in_batches_because(ctx.log, "the output is a stream: a merge in ranges feeds one from " +
                                          std::to_string(kLeastStreamThreads) + " threads on, and there are " +
                                          std::to_string(ctx.pool.size()));
    return false;
  }
  const uint64_t budget = merges.plan().budget;
  const uint64_t stream_memory = mapped ? 0 : budget / kStreamShare;
  ParallelMergeOptions options;
  options.budget_bytes = budget - stream_memory;
  options.ranges = forced;
  const ParallelMergePlan plan = plan_parallel_merge(shapes, ctx.pool.size(), options);
  if (merge_in_batches_because(ctx.log, plan.refusal)) return false;
  uint8_t* out = mapped ? dest.blocks.whole(bytes) : nullptr;
  if (mapped && !out) {
    merge_in_batches_because(ctx.log, "the output could not be mapped");
    return false;
  }
  open_s += step.lap();
  const size_t wanted =
      mapped || forced ? plan.ranges : stream_ranges_wanted(bytes, stream_memory, plan.workers, plan.ranges);
  // Slots for fewer than three ranges at once keep the workers waiting on
  // the writer and on one another: the batches do better.
  if (!mapped && !forced && stream_memory < 3 * (bytes / wanted + 1)) {
    merge_in_batches_because(ctx.log,
                             "the output is a stream, and a quarter of the budget holds fewer than three of its ranges");
    return false;
  }
  const MergeRanges ranges = cut_line_runs(runs, ctx.compare, ctx.eol(), wanted, ctx.pool, ctx.config.unique);
  const double cut_s = step.lap();
  std::string how;
  const CutRangesResult f = mapped ? merge_ranges(ctx, dest, runs, views, ranges, plan, options.budget_bytes, out)
                                : stream_ranges(ctx, dest, runs, ranges, plan, stream_memory, &how);
  const double merge_s = step.lap();
  report.output_records += f.kept;
  report.output_bytes += f.bytes;
  report.add_duration("merge: cutting into ranges", cut_s);
  report.add_duration("merge: ranges", merge_s);
  if (f.close_s > 0) report.add_duration("merge: closing -u gaps", f.close_s);
  ctx.log.info(ranges_line_start(ranges.ranges(), runs.size(), std::min<size_t>(plan.workers, ranges.ranges()),
                                 plan.buffer_bytes) +
               ": runs opened in " + seconds_text(open_s) + ", cut " +
               seconds_text(cut_s) + ", merged " + seconds_text(merge_s) + " (threads busy " +
               seconds_text(f.busy_s) + ", reading runs " + seconds_text(f.read_s) +
               (mapped ? ", making output pages present " + seconds_text(f.present_s) : std::string()) +
               (views.empty() || !mapped ? std::string() : "; freed in the background in " + seconds_text(f.release_s)) +
               ")" + (f.close_s > 0 ? ", -u gaps closed " + seconds_text(f.close_s) : std::string()) + how);
  return true;
}

}  // namespace

bool merge_lines_in_ranges(const LineMerges& merges, LineDestination& out, std::vector<PendingSource>& files,
                           const std::vector<const MergeRun*>& held) {
  const Log& log = merges.context().log;
  const long forced = forced_final_merge_ranges();
  if (forced < 0 || merge_in_batches_because(log, refusal(merges))) return false;
  for (const PendingSource& s : files) {
    if (s.is_input() && merge_in_batches_because(log, "-m merges its inputs")) return false;
  }
  Stopwatch step;
  const std::vector<std::unique_ptr<RunView>> views = merges.runs().view(files, merges.context().pool);
  std::vector<std::unique_ptr<FileMergeRun>> bytes;
  std::vector<const MergeRun*> runs;
  std::vector<const RunView*> release;
  for (const auto& v : views) {
    bytes.push_back(std::make_unique<FileMergeRun>(*v));
    runs.push_back(bytes.back().get());
    release.push_back(v.get());
  }
  runs.insert(runs.end(), held.begin(), held.end());
  return merge_runs(merges, out, runs, release, static_cast<size_t>(std::max(forced, 0L)), step.seconds());
}

}  // namespace gsort
