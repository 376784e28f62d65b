// An output made of ranges that many threads fill at once, written in order
// through one stream (a pipe, a file written around the page cache, an
// encoder): the final merge in ranges where the output cannot be mapped.
// Each range is filled into a slot of host memory; the slots are lent in
// the ranges' order, and one writer thread copies each filled range into
// the stream in turn and hands its slot back, so that the slots in use are
// always the oldest ranges not yet written and no worker can wait on a
// range that waits on it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "io/output/block_target.h"
#include "src/core/thread_pool.h"

namespace gsort {

struct OrderedRangesFigures {
  uint64_t bytes = 0;        // written to the stream
  uint64_t slot_bytes = 0;   // each slot's size
  size_t slots = 0;
  double write_wait_s = 0;   // the writer's wait for ranges not yet filled
};

// Fills range p (sizes[p] bytes) at `out`; made once per worker thread.
using FillRange = std::function<void(size_t p, uint8_t* out)>;

// Fills every range of `sizes` on up to `workers` pool threads, each with
// its own FillRange from make_filler, into slots taking at most
// `memory_bytes` together (one slot at least, as large as the largest
// range), and writes them in order to `target` (not finished here).
// `written` (may be null) is advanced as bytes reach the target. Rethrows
// the first error of a filler, the target or the writer.
OrderedRangesFigures write_ranges_in_order(ThreadPool& pool, size_t workers, const std::vector<uint64_t>& sizes,
                                           uint64_t memory_bytes, const std::function<FillRange()>& make_filler,
                                           BlockTarget& target, std::atomic<uint64_t>* written);

}  // namespace gsort
