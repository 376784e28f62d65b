// The exchange for a slice that fits in memory: the rank maps (or reads)
// its whole slice, finds every record's destination on all its threads and
// moves the records bound for other ranks into send buffers (place_sends),
// all while the exchange starts; it learns from the others how many records
// each will send it; then it trades the send buffers in a few large rounds
// while its own bucket is copied straight into its local sort's buffer
// (place_own), so that the receiver can land everything where its local
// sort wants it (MemorySink) or, when its partition is too large for
// memory, in files (FileSink). The streaming exchange (shuffle.h) is for
// slices larger than memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/partition/input_slice.h"
#include "src/config/sort_config.h"
#include "src/distributed/partition/partition.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/exchange/shuffle.h"

namespace gsort {

// Whether a slice of `slice_records` records (the largest of any rank) can
// be held whole with its buckets in `memory_bytes` (-S per rank), leaving
// room for about as many received records.
bool whole_slice_fits(uint64_t slice_records, uint32_t record_size, uint64_t memory_bytes);

// Records per pair of ranks in one round of the whole-slice exchange: large
// enough that rounds are few, small enough for the NCCL exchange's device
// staging buffers (two per other rank).
uint64_t whole_round_records(int ranks, uint32_t record_size);

// A rank's whole slice, mapped from the page cache or read into memory,
// with every record's destination found but no record moved yet.
struct ClassifiedSlice {
  std::unique_ptr<MappedInput> mapped;  // the slice, where it lies inside one input
  HostBuffer read;                        // or the slice read from several
  const uint8_t* records = nullptr;
  std::unique_ptr<SlicePartition> partition;  // on the rank's GPU (on_gpu) or the host
  bool on_gpu = false;
  std::string gpu_refusal;  // why not on the GPU
  double map_s = 0, classify_s = 0;  // how long mapping (or reading) and classifying took
  const std::vector<uint64_t>& counts() const { return partition->counts(); }
};

// Reads the rank's slice and finds each record's destination: on the
// rank's GPU where config allows one and it has the memory, else on the
// pool (may throw; not collective).
ClassifiedSlice read_and_classify(const ShuffleInput& in, const RankGroup& group, const SortConfig& config,
                                  ThreadPool& pool);

// The buckets bound for other ranks, back to back in rank order, at `base`
// (memory `owned` holds, or the caller's until it hands it over there).
struct PartitionedSlice {
  HostBuffer owned;
  uint8_t* base = nullptr;
  std::vector<uint64_t> counts;  // every rank's bucket, the rank's own included
  std::vector<uint64_t> starts;  // where each other rank's bucket begins at `base` (records)
  const uint8_t* bucket(int rank, uint32_t record_size) const;
};

// How many records of the slice go to other ranks.
uint64_t records_to_send(const ClassifiedSlice& classified, int self);

// Moves the records bound for other ranks to their buckets: into `room`
// where given (room for records_to_send records: a buffer made beforehand,
// whose ownership the caller moves into `owned` later), else into fresh
// memory. The rank's own bucket stays where it is, for place_own.
PartitionedSlice place_sends(const ClassifiedSlice& classified, int self, uint32_t record_size, uint8_t* room,
                             ThreadPool& pool);

// Moves the rank's own records to `place` (room for its count), straight
// where the local sort wants them. Runs beside the trade of the others.
void place_own(const ClassifiedSlice& classified, int self, uint8_t* place);

// Collective, never throws: what each rank sends to this one (its own
// bucket's count at its own place).
std::vector<uint64_t> incoming_counts(const RankGroup& group, const std::vector<uint64_t>& counts);

// Collective: trades the buckets of every other rank in rounds of at most
// `round_records` records per pair. The rank's own bucket is the caller's.
// Failures end every rank's trade together (RanksFailed from the fence).
void trade_buckets(const RankGroup& group, RankFence& fence, const PartitionedSlice& slice, uint32_t record_size,
                   uint64_t round_records, Exchange& exchange, ReceiveSink& sink);

}  // namespace gsort
