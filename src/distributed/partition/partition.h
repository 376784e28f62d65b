// Splits records into one bucket per rank by the splitters, keeping input
// order inside each bucket (a stable counting sort by destination). Two
// passes: classify() finds each record's destination and counts them per
// task; scatter() then copies every task's records to their places, from
// the counts' prefix sums. Between the two the caller may decide where each
// bucket goes (the whole-slice exchange puts the rank's own bucket straight
// into its local sort's buffer). Tasks run on a thread pool where one is
// given.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/distributed/partition/slice_partition.h"
#include "src/distributed/partition/splitters.h"
#include "src/keys/key_layout.h"

namespace gsort {

class Partitioner : public SlicePartition {
 public:
  // `pool` may be null (one thread).
  Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks, ThreadPool* pool);

  // records: `count` records whose first is global record `first_index`.
  // Finds their destinations; counts() then holds each bucket's size.
  void classify(const uint8_t* records, uint64_t count, uint64_t first_index);
  // Copies the records given to classify() (the same pointer) so that
  // bucket d starts at buckets[d] (room for counts()[d] records each). A
  // null buckets[d] skips bucket d, for a later call to fill: a bucket's
  // records are copied by one call, all of them.
  void scatter(const uint8_t* records, const std::vector<uint8_t*>& buckets) { scatter_as_chosen(records, buckets); }
  void scatter(const uint8_t* records, const std::vector<uint8_t*>& buckets, BucketMemory) override {
    scatter_as_chosen(records, buckets);
  }
  // Both, into one buffer with room for `count` records: the buckets back
  // to back in rank order.
  void partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets);

  const std::vector<uint64_t>& counts() const override { return counts_; }

 private:
  template <class Task>
  void run(const Task& task) const;
  void scatter_as_chosen(const uint8_t* records, const std::vector<uint8_t*>& buckets);
  // Whether a record's destination fits in a byte (up to 256 ranks).
  bool byte_destinations() const { return ranks_ <= 256; }
  // The passes with one Destination (uint8_t where byte_destinations(),
  // else uint32_t) per record.
  template <class Destination>
  void classify_as(const uint8_t* records, uint64_t count, uint64_t first_index);
  template <class Destination>
  void scatter_as(const uint8_t* records, const std::vector<uint8_t*>& buckets);

  const KeyLayout& layout_;
  const Splitters& splitters_;
  ThreadPool* pool_;
  size_t ranks_;
  uint64_t count_ = 0;
  size_t tasks_ = 1;
  std::vector<uint64_t> counts_;
  HostBuffer destination_;              // per record classified, its bucket (uint8_t or uint32_t)
  std::vector<uint64_t> task_counts_;  // [task][rank]: records of each task for each rank
};

}  // namespace gsort
