// Where the CPU line sorter's time goes, summed over a run's chunks, for
// -v: the first pass and the bucket split in wall time (all threads work
// in each), and the buckets' radix sorts and tie refinement in thread time
// (tasks run side by side), with how many lines the refinement took. Its
// wall time against its thread time shows whether a step keeps every
// thread busy.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "src/core/stopwatch.h"

namespace gsort {

class SortSteps {
 public:
  // Adds the seconds since `since`: to the thread time of one-thread tasks
  // (any thread, side by side), or, `on_all` (one caller, every thread
  // working), to the wall time of the steps that use all threads.
  void add_radix(const Stopwatch& since, bool on_all) { add(radix_ns_[on_all], since); }
  void add_refine(const Stopwatch& since, bool on_all, uint64_t lines, uint64_t segments) {
    add(refine_ns_[on_all], since);
    refined_lines_.fetch_add(lines, std::memory_order_relaxed);
    refined_segments_.fetch_add(segments, std::memory_order_relaxed);
  }
  // Wall seconds of the steps every thread works in (one thread calls).
  double first_pass_s = 0, split_s = 0, buckets_s = 0;
  // Of the first pass, the composites' samples and plans (before any fill).
  double composite_planned_s = 0;
  // Wall seconds of the sorts handed off the CPU (the GPU), and their chunks.
  double offload_s = 0;
  uint64_t offloaded_chunks = 0;
  // Chunks sorted, those whose keys were compiled into one image
  // (composite_pass.h), those whose composite was planned twice, those
  // whose composite squeezed text to its varying bits, and those whose
  // composite kept every line's tie words (many lines tied), and those
  // whose composite entries were filled and sorted off the CPU.
  uint64_t chunks = 0, composite_chunks = 0, composite_replans = 0, composite_squeezed = 0, composite_tie_words = 0;
  uint64_t composite_offloaded = 0;

  // "first pass 0.410 s (planned in 0.050 s; composite images in 3 of 4 chunks, 1 planned
  // again, text squeezed in 2, tie words kept in 1), split 0.052 s, sorted
  // off the CPU 0.000 s (0 chunks), their entries filled there in 0,
  // buckets 1.200 s; radix 3.100
  // thread-s in tasks + 0.200 s on all threads; ties 5.200 thread-s in
  // tasks + 0.400 s on all threads, 1234567 lines in 4567 segments".
  std::string text() const;

 private:
  static void add(std::atomic<uint64_t>& total, const Stopwatch& since) {
    total.fetch_add(static_cast<uint64_t>(since.seconds() * 1e9), std::memory_order_relaxed);
  }
  std::atomic<uint64_t> radix_ns_[2] = {}, refine_ns_[2] = {};  // [0]: in tasks, [1]: on all threads
  std::atomic<uint64_t> refined_lines_{0}, refined_segments_{0};
};

}  // namespace gsort
