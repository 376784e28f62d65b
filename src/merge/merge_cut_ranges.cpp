#include "src/merge/merge_cut_ranges.h"

#include "src/algo/close_gaps.h"
#include "src/core/stopwatch.h"
#include "src/merge/background_release.h"

namespace gsort {

CutRangesResult merge_cut_ranges(ThreadPool& pool, const MergeRanges& ranges, uint32_t unit_bytes,
                                 const std::function<MergeRange()>& make, const CutRangesOptions& options,
                                 uint8_t* out) {
  CutRangesResult result;
  Stopwatch step;
  const size_t n = ranges.ranges();
  std::vector<uint64_t> starts(n + 1);
  for (size_t p = 0; p <= n; ++p) starts[p] = ranges.records_before(p) * unit_bytes;
  // The release sees the runs in files: the first columns of the cuts.
  MergeRanges file_ranges;
  for (const std::vector<uint64_t>& cut : ranges.cuts) {
    file_ranges.cuts.emplace_back(cut.begin(), cut.begin() + static_cast<std::ptrdiff_t>(options.release.size()));
  }
  std::unique_ptr<BackgroundRelease> release;
  if (!options.release.empty()) release = std::make_unique<BackgroundRelease>(options.release, file_ranges, &pool);
  const bool unique = options.worker.unique;
  InPlaceOptions in_place;
  in_place.workers = options.workers;
  in_place.may_drop = unique;
  in_place.release = release.get();
  in_place.drop_written = options.drop_written && !unique;
  in_place.written = options.written;
  const RangesTally tally = merge_ranges_in_place(pool, starts, out, make, in_place);
  result.merge_s = step.lap();
  if (release) {
    result.release_s = release->stop(options.release_all);
    result.release_wait_s = step.lap();
  }
  const RangeResult sum = tally.sum();
  result.kept = sum.kept;
  result.bytes = sum.bytes;
  result.dropped = sum.dropped;
  result.dropped_hash_sum = sum.dropped_hash_sum;
  result.read_s = sum.read_s;
  result.busy_s = tally.busy_s();
  result.present_s = tally.present_s();
  if (unique) {
    std::vector<Piece> pieces;
    for (size_t p = 0; p < n; ++p) pieces.push_back(Piece{starts[p], tally.done[p].bytes});
    // The readers' buffers are gone: their memory serves the moves.
    close_gaps(pool, out, pieces, options.close_bytes);
    result.close_s = step.lap();
  }
  return result;
}

}  // namespace gsort
