#include "src/merge/parallel_merge.h"

#include <algorithm>
#include <exception>
#include <memory>

#include "src/core/stopwatch.h"
#include "src/merge/range_split.h"
#include "src/merge/record_unit.h"

namespace gsort {
namespace {

// A range smaller than this is not worth a task of its own.
constexpr uint64_t kLeastRangeBytes = uint64_t{4} << 20;
// Ranges per thread: a thread slowed by others leaves the rest busy.
constexpr uint64_t kRangesPerThread = 4;
// Each run's part of a range, in blocks at least: the blocks a cut goes
// through are read by both ranges.
constexpr uint64_t kLeastBlocksPerPart = 4;
// A plain run's read buffer: small enough that what a thread reads stays in
// its caches until it is checked and merged (larger buffers were slower on
// 16 threads), large enough that each read moves a few blocks.
constexpr uint64_t kMostBufferBytes = uint64_t{256} << 10;
// What a worker decoding compressed runs holds besides its buffers: a
// zstd context and a compressed frame (at most its decoded size, bound
// aside).
constexpr uint64_t kDecoderBytes = uint64_t{256} << 10;

std::string bytes_text(uint64_t bytes) { return std::to_string(bytes >> 10) + " KiB"; }

}  // namespace

ParallelMergePlan plan_parallel_merge(const std::vector<const RunView*>& runs, unsigned threads,
                                      const ParallelMergeOptions& options) {
  std::vector<MergeRunShape> shapes;
  for (const RunView* r : runs) {
    shapes.push_back(MergeRunShape{r->size() * r->record_size(), r->least_buffer_bytes(), r->index_bytes(),
                                   r->compressed()});
  }
  return plan_parallel_merge(shapes, threads, options);
}

ParallelMergePlan plan_parallel_merge(const std::vector<MergeRunShape>& runs, unsigned threads,
                                      const ParallelMergeOptions& options) {
  ParallelMergePlan plan;
  uint64_t bytes = 0, unit = 1, index = 0;
  bool compressed = false;
  for (const MergeRunShape& r : runs) {
    bytes += r.bytes;
    unit = std::max(unit, r.least_buffer_bytes);
    index += r.index_bytes;
    compressed |= r.compressed;
  }
  const uint64_t n = std::max<uint64_t>(runs.size(), 1);
  if (bytes == 0) {
    plan.refusal = "no records";
    return plan;
  }
  if (index >= options.budget_bytes) {
    plan.refusal = "the frame index of the runs takes the budget";
    return plan;
  }
  const uint64_t left = options.budget_bytes - index;
  const uint64_t extra = compressed ? unit + kDecoderBytes : 0;
  const uint64_t by_size = std::min(bytes / kLeastRangeBytes, bytes / (n * unit * kLeastBlocksPerPart));
  plan.ranges = options.ranges != 0 ? options.ranges
                                    : static_cast<size_t>(std::min<uint64_t>(uint64_t{threads} * kRangesPerThread, by_size));
  const uint64_t by_memory = left / (n * unit + extra);
  plan.workers = static_cast<unsigned>(std::min<uint64_t>({threads, std::max<size_t>(plan.ranges, 1), by_memory}));
  if (options.ranges == 0 && plan.ranges < 2) {
    plan.refusal = "too small to cut into ranges";
  } else if (plan.workers < (options.ranges == 0 ? 2u : 1u)) {
    plan.refusal = "the budget gives no two threads a buffer of " + bytes_text(unit) + " for each of " +
                   std::to_string(runs.size()) + " runs";
  }
  if (!plan.refusal.empty()) return plan;
  const uint64_t share = (left / plan.workers - extra) / n;
  plan.buffer_bytes = compressed ? unit : std::max(unit, std::min(kMostBufferBytes, share) / unit * unit);
  return plan;
}

ParallelMergeResult parallel_merge(const std::vector<const RunView*>& runs, const KeyLayout& layout,
                                   ThreadPool& pool, const ParallelMergePlan& plan,
                                   const ParallelMergeOptions& options, uint8_t* out) {
  const uint32_t rs = layout.record_size();
  ParallelMergeResult result;
  Stopwatch step;
  SplitOptions split;
  split.ranges = plan.ranges;
  split.whole_keys = options.unique_by != nullptr;
  split.sample_bytes = options.budget_bytes / 4;
  const MergeRanges ranges =
      split_ranges(std::vector<const SortedRecords*>(runs.begin(), runs.end()), layout, split, pool);
  result.ranges = ranges.ranges();
  result.split_s = step.lap();

  std::vector<std::unique_ptr<MergeRun>> files;
  std::vector<const MergeRun*> merge_runs;
  for (const RunView* r : runs) {
    files.push_back(std::make_unique<FileMergeRun>(*r));
    merge_runs.push_back(files.back().get());
  }
  CutRangesOptions cut;
  cut.workers = plan.workers;
  cut.worker.buffer_bytes = plan.buffer_bytes;
  cut.worker.unique = options.unique_by != nullptr;
  cut.worker.sum_dropped = options.sum_dropped;
  cut.bytes_read = options.bytes_read;
  if (options.release_runs) cut.release = runs;
  cut.release_all = options.release_all;
  cut.close_bytes = options.budget_bytes;
  const RecordUnit unit(layout);  // -u's equal keys are the sort's
  static_cast<CutRangesResult&>(result) = merge_cut_ranges(pool, merge_runs, ranges, rs, unit, cut, out);
  return result;
}

}  // namespace gsort
