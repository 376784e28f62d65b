// Exchange through memory that every rank of one host maps: a segment each
// in one file of /dev/shm that gsort names and removes (shared_segment.h).
// Each rank owns two slots per peer in its segment. A round moves
// its buckets in pieces of one slot: in each step every rank copies its next
// piece for each peer into a slot of its own segment while it copies the
// previous step's pieces meant for it out of the peers' segments, straight
// into the places the sink gives; one barrier ends each step. The copies run
// on the rank's thread pool.
//
// Why: ranks of one host hold their records in host memory. MPI's own
// transport moves them at a few GB/s per rank where it has no single-copy
// mechanism, and NCCL needs a second or two to start, the buffers pinned,
// and two PCIe crossings per byte (docs/benchmarks.md); two memory copies
// need none of that. Only for ranks that all share a host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/exchange/shared_segment.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// The slot size (bytes, whole records) the shared-memory exchange would use
// for `ranks` ranks on one host with `shm_free` bytes free where the segment
// lives, where no pair trades more than `round_records` records in a round;
// 0 where that room is too small for it.
uint64_t shared_slot_bytes(int ranks, uint32_t record_size, uint64_t round_records, uint64_t shm_free);

// Bytes free in /dev/shm (where the segment is made); 0 where it cannot be read.
uint64_t shared_memory_free();

// Collective over the group: whether every rank sees one /dev/shm (the
// same kernel, by its boot id, and the same directory, by device and
// inode). Ranks that MPI places on one host need not (containers, or
// machines a launcher takes for one host), and a segment made in one
// /dev/shm is not in another.
bool one_shared_memory(const RankGroup& group);

class SharedMemoryExchange final : public Exchange {
 public:
  // Collective over the group, whose ranks must all be on one host and
  // share its /dev/shm. Throws UsageError on every rank when they do not, Error when the segment cannot
  // be made (on every rank: the ranks vote).
  SharedMemoryExchange(const RankGroup& group, uint32_t record_size, uint64_t round_records, ThreadPool& pool);
  ~SharedMemoryExchange() override;
  SharedMemoryExchange(const SharedMemoryExchange&) = delete;
  SharedMemoryExchange& operator=(const SharedMemoryExchange&) = delete;

  void round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
             ReceiveSink& sink) override;
  const ExchangeTally& tally() const override { return tally_; }

  // "shared memory (2 x 256 MiB per pair)", for -v.
  std::string describe() const;

 private:
  // Slot `half` (0 or 1) in `owner`'s segment for the pieces it sends `to`.
  uint8_t* slot(int owner, int to, uint64_t half) const;
  // A step: everyone's copies done, and visible to every rank of the host.
  void step_done();

  const RankGroup& group_;
  const uint32_t record_size_;
  ThreadPool& pool_;
  MPI_Comm host_ = MPI_COMM_NULL;
  uint64_t slot_bytes_ = 0;
  std::unique_ptr<SharedSegment> segments_;  // each rank's segment, mapped here
  std::vector<uint64_t> incoming_;
  ExchangeTally tally_;
};

}  // namespace gsort
