// An output made of ranges that many threads fill at once, written in order
// through one stream (a pipe, a file written around the page cache, an
// encoder): the final merge in ranges where the output cannot be mapped.
// Each range is filled into a slot of host memory; the slots are lent in
// the ranges' order, and one writer thread hands each filled slot, as it
// is, to the stream in turn and takes it back, so that the slots in use are
// always the oldest ranges not yet written and no worker can wait on a
// range that waits on it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/core/thread_pool.h"

namespace gsort {

struct OrderedRangesFigures {
  uint64_t bytes = 0;        // handed to the sink
  uint64_t slot_bytes = 0;   // each slot's size
  size_t slots = 0;
  double write_wait_s = 0;   // the writer's wait for ranges not yet filled
};

// Fills range p (sizes[p] bytes) at `out`; made once per worker thread.
using FillRange = std::function<void(size_t p, uint8_t* out)>;

// Where the filled ranges go, each whole, in order (a file's or a pipe's
// write, an encoder).
using RangeSink = std::function<void(const uint8_t* data, size_t bytes)>;

// Fills every range of `sizes` on up to `workers` pool threads, each with
// its own FillRange from make_filler, into slots taking at most
// `memory_bytes` together (one slot at least, as large as the largest
// range), and hands them in order to `sink` from a writer thread of its
// own. `written` (may be null) is advanced as ranges reach the sink.
// Rethrows the first error of a filler or of the sink.
OrderedRangesFigures write_ranges_in_order(ThreadPool& pool, size_t workers, const std::vector<uint64_t>& sizes,
                                           uint64_t memory_bytes, const std::function<FillRange()>& make_filler,
                                           const RangeSink& sink, std::atomic<uint64_t>* written);

}  // namespace gsort
