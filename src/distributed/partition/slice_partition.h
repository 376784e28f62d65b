// A rank's whole slice with every record's destination found, ready to be
// moved into one bucket per rank (input order kept inside each bucket): by
// the host's Partitioner (partition.h) or on the rank's GPU
// (gpu_partition.h), which hold the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsort {

// Whether another thread may pin, fill or free the buckets' memory while
// they are copied (the local sort's receive buffer, pinned in the
// background), or nothing else touches it (a send buffer), so that the GPU
// partition may pin it for the copy.
enum class BucketMemory { kShared, kPrivate };

class SlicePartition {
 public:
  virtual ~SlicePartition() = default;
  // Each bucket's size, in rank order.
  virtual const std::vector<uint64_t>& counts() const = 0;
  // Copies bucket d to buckets[d] (room for counts()[d] records) for every
  // non-null buckets[d]; a null one is left for a later call, which copies
  // it whole. `records` is the slice that was classified.
  virtual void scatter(const uint8_t* records, const std::vector<uint8_t*>& buckets, BucketMemory memory) = 0;
  // What the partition did, for -v (empty where there is nothing to add).
  virtual std::string describe() const { return std::string(); }
};

}  // namespace gsort
