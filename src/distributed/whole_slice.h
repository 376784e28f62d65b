// The exchange for a slice that fits in memory: the rank reads its whole
// slice at once (many reads in parallel), partitions it on all its threads,
// learns from the others how many records each will send it, and then
// trades the buckets in a few large rounds, so that the receiver can land
// them straight where its local sort wants them (MemorySink) or, when its
// partition is too large for memory, in files (FileSink). The streaming
// exchange (shuffle.h) is for slices larger than memory.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/distributed/exchange.h"
#include "src/distributed/rank_fence.h"
#include "src/distributed/shuffle.h"

namespace gsort {

// Whether a slice of `slice_records` records (the largest of any rank) can
// be held whole with its buckets in `memory_bytes` (-S per rank), leaving
// room for about as many received records.
bool whole_slice_fits(uint64_t slice_records, uint32_t record_size, uint64_t memory_bytes);

// Records per pair of ranks in one round of the whole-slice exchange: large
// enough that rounds are few, small enough for the NCCL exchange's device
// staging buffers (two per other rank).
uint64_t whole_round_records(int ranks, uint32_t record_size);

struct PartitionedSlice {
  HostBuffer buckets;                  // every rank's bucket, in rank order
  std::vector<uint64_t> counts;        // records in each bucket
  const uint8_t* bucket(int rank, uint32_t record_size) const;
};

// Reads the rank's slice and partitions it (may throw; not collective).
PartitionedSlice read_and_partition(const ShuffleInput& in, const RankGroup& group, ThreadPool& pool);

// Collective, never throws: what each rank sends to this one (its own
// bucket's count at its own place).
std::vector<uint64_t> incoming_counts(const RankGroup& group, const std::vector<uint64_t>& counts);

// Collective: trades the buckets of every other rank in rounds of at most
// `round_records` records per pair. The rank's own bucket is the caller's.
// Failures end every rank's trade together (RanksFailed from the fence).
void trade_buckets(const RankGroup& group, RankFence& fence, const PartitionedSlice& slice, uint32_t record_size,
                   uint64_t round_records, Exchange& exchange, ReceiveSink& sink);

}  // namespace gsort
