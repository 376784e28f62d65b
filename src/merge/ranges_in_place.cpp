#include "src/merge/ranges_in_place.h"

#include <algorithm>
#include <string>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"

namespace gsort {

void RangesTally::record(size_t p, const RangeResult& r, uint64_t bytes, bool may_drop, double busy_s) {
  if (r.bytes > bytes || (!may_drop && r.bytes != bytes)) {
    throw Error("internal error: a range of the final merge wrote " + std::to_string(r.bytes) + " bytes of " +
                std::to_string(bytes));
  }
  done[p] = r;
  busy[p] = busy_s;
}

RangeResult RangesTally::sum() const {
  RangeResult s;
  for (const RangeResult& r : done) {
    s.kept += r.kept;
    s.bytes += r.bytes;
    s.dropped += r.dropped;
    s.dropped_hash_sum += r.dropped_hash_sum;
    s.read_s += r.read_s;
  }
  return s;
}

double RangesTally::busy_s() const {
  double s = 0;
  for (double b : busy) s += b;
  return s;
}

double RangesTally::present_s() const {
  double s = 0;
  for (double b : present) s += b;
  return s;
}

RangesTally merge_ranges_in_place(ThreadPool& pool, const std::vector<uint64_t>& starts, uint8_t* out,
                                  const std::function<MergeRange()>& make_range, const InPlaceOptions& options) {
  const size_t n = starts.empty() ? 0 : starts.size() - 1;
  RangesTally tally(n);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  pool.parallel_for(std::min<size_t>(options.workers, n), [&](size_t) {
    try {
      const MergeRange merge = make_range();
      for (size_t q = next++; q < n && !failed; q = next++) {
        const size_t p = options.release ? n - 1 - q : q;
        uint8_t* at = out + starts[p];
        const uint64_t room = starts[p + 1] - starts[p];
        const Stopwatch present;
        populate_for_write(at, room);
        tally.present[p] = present.seconds();
        const Stopwatch merging;
        const RangeResult r = merge(p, at);
        tally.record(p, r, room, options.may_drop, merging.seconds());
        if (options.drop_written) drop_written_pages(at, room);
        if (options.written) options.written->fetch_add(room, std::memory_order_relaxed);
        if (options.release) options.release->merged(p);
      }
    } catch (...) {
      failed = true;  // the other threads take no more ranges
      throw;
    }
  });
  return tally;
}

}  // namespace gsort
