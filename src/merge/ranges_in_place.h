// The ranges of a final merge in ranges merged straight into their places
// in one mapped output, whatever the unit: the records' (parallel_merge.h)
// and the lines' (src/lines/merge_in_ranges.cpp). The pool's threads each
// take one range at a time, a few per thread, so that a slow range does
// not hold the rest; each range's output pages are made present in one
// call first (faults taken unit by unit, by every thread at once, cost the
// merge most of its time).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/merge/background_release.h"
#include "src/merge/range_worker.h"

namespace gsort {

// Merges range p into `out`, which has room for all of it; made once per
// worker thread (its buffers are the thread's).
using MergeRange = std::function<RangeResult(size_t p, uint8_t* out)>;

// What the ranges left, summed, and the threads' time.
struct RangesTally {
  std::vector<RangeResult> done;  // per range
  std::vector<double> busy;       // merging each range (seconds)
  std::vector<double> present;    // making its output pages present
  explicit RangesTally(size_t ranges) : done(ranges), busy(ranges), present(ranges) {}

  // Range p's outcome, checked: `bytes` its room, all of it filled unless
  // -u `may_drop`.
  void record(size_t p, const RangeResult& r, uint64_t bytes, bool may_drop, double busy_s);
  RangeResult sum() const;  // read_s summed too
  double busy_s() const;
  double present_s() const;
};

struct InPlaceOptions {
  unsigned workers = 1;
  bool may_drop = false;  // -u: a range may write less than its room
  // Told as each range is merged; the ranges then go from the last to the
  // first, so that what is merged is each run's tail.
  BackgroundRelease* release = nullptr;
  // Each range's pages dropped from the mapping once written (the unmap at
  // the end has less to clear), and `written` advanced by its room.
  bool drop_written = false;
  std::atomic<uint64_t>* written = nullptr;
};

// Every range p merged into out + starts[p] (starts: ranges + 1 byte
// offsets), each worker with its own MergeRange from make_range.
RangesTally merge_ranges_in_place(ThreadPool& pool, const std::vector<uint64_t>& starts, uint8_t* out,
                                  const std::function<MergeRange()>& make_range, const InPlaceOptions& options);

}  // namespace gsort
