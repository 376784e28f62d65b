// Splits records into one bucket per rank by the splitters, keeping input
// order inside each bucket (a stable counting sort by destination). Two
// passes: each task finds the destination of its share of the records and
// counts them; then, from the counts' prefix sums, each task copies its
// records to their places. Tasks run on a thread pool where one is given.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/distributed/splitters.h"
#include "src/keys/key_layout.h"

namespace gsort {

class Partitioner {
 public:
  // `pool` may be null (one thread).
  Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks, ThreadPool* pool);

  // records: `count` records whose first is global record `first_index`.
  // Writes them to `buckets` (room for count records), grouped by rank in
  // rank order; counts() then holds each bucket's size.
  void partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets);
  const std::vector<uint64_t>& counts() const { return counts_; }

 private:
  const KeyLayout& layout_;
  const Splitters& splitters_;
  ThreadPool* pool_;
  size_t ranks_;
  std::vector<uint64_t> counts_;
  std::vector<uint32_t> destination_;  // of each record of the call
  std::vector<uint64_t> task_counts_;  // [task][rank], then each task's write positions
};

}  // namespace gsort
