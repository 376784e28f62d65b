// One window of a rank's slice (whole lines) routed on the pool's threads:
// each line to the bucket of its rank (line_router.h), in input order.
// This rank's own lines may go straight into the place `own` gives for
// them (the received pool, ReceivedFiles::take), sparing a copy. Ranks
// that read the input through this rank's view may be sent marks instead
// (line_marks.h): their lines are not copied here, every line is marked
// with its rank, and they copy theirs from the input themselves.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/distributed/lines/line_router.h"

namespace gsort {

class WindowRouter {
 public:
  // Where this rank's `bytes` of a window go; null: into its bucket.
  using OwnPlace = std::function<uint8_t*(uint64_t bytes)>;
  // marked[r]: rank r is sent marks.
  WindowRouter(const LineRouter& router, uint8_t eol, int ranks, int me, ThreadPool& pool, std::vector<bool> marked);

  // Routes the window of `size` bytes at `w` (whole lines, each ended by
  // its terminator, the first at `place` in the inputs).
  void route(const uint8_t* w, uint64_t size, uint64_t place, const OwnPlace& own);
  // A marked rank's bucket holds nothing.
  const uint8_t* bucket(int rank) const { return buckets_[static_cast<size_t>(rank)].data(); }
  uint64_t bucket_bytes(int rank) const { return sizes_[static_cast<size_t>(rank)]; }
  // Whether this rank's lines of the last window went to the place `own` gave.
  bool own_placed() const { return own_placed_; }
  // Where some rank is marked, for the last window: where each task's
  // lines began, and each task's marks, a line's rank a byte, in input order.
  const std::vector<uint64_t>& task_begin() const { return task_begin_; }
  const std::vector<std::vector<uint8_t>>& marks() const { return marks_; }

 private:
  // Consecutive lines of a window bound for one rank.
  struct RoutedRun {
    uint64_t begin = 0;
    uint64_t bytes = 0;
    int rank = 0;
  };
  void find_ranks(const uint8_t* w, uint64_t begin, uint64_t end, uint64_t place, size_t t);

  const LineRouter& router_;
  const uint8_t eol_;
  const size_t ranks_;
  const size_t me_;
  ThreadPool& pool_;
  const std::vector<bool> marked_;
  const bool marking_;  // some rank is marked
  std::vector<HostBuffer> buckets_;
  std::vector<uint64_t> sizes_;
  std::vector<std::vector<RoutedRun>> runs_;   // per task
  std::vector<std::vector<uint64_t>> bytes_;   // per task, per rank
  std::vector<uint64_t> task_begin_;
  std::vector<std::vector<uint8_t>> marks_;    // per task, where marking
  bool own_placed_ = false;
};

}  // namespace gsort
