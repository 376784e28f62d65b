// The data plane of the distributed sort: one collective round moves each
// rank's buckets (the records it sends to each rank) to their ranks. The
// driver reads, partitions and calls round() in a loop; what comes in goes
// to a sink, per source rank, in the order that rank sent it.
//
// MpiExchange (mpi_exchange.h) carries host buffers through MPI. The GPU
// data plane slots in here as NcclExchange (the next step, not built yet):
// buckets in device memory, ncclSend/ncclRecv of every pair inside one
// ncclGroupStart/End per round, the ncclUniqueId broadcast from rank 0 over
// MPI, and NCCL_NVLS_ENABLE=0 set before ncclCommInitRank unless the user
// set it (send/recv gains nothing from NVLink multicast).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace gsort {

// Takes `count` records from rank `source`.
using ReceiveSink = std::function<void(int source, const uint8_t* records, uint64_t count)>;

// What one rank's exchange moved, for -v and --stats.
struct ExchangeTally {
  uint64_t bytes_sent = 0;      // to other ranks (its own bucket excluded)
  uint64_t bytes_received = 0;  // from other ranks
  uint64_t rounds = 0;
  double wait_s = 0;            // inside the collectives: moving data and waiting for other ranks
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  // Collective; every rank calls it the same number of times. `buckets`
  // holds counts[d] records for each rank d, back to back in rank order
  // (counts.size() is the number of ranks, each count at most
  // max_bucket_records()). Calls sink for every source rank in rank order.
  // Never throws before the data has moved (what sink throws propagates),
  // so a failing rank cannot leave the others waiting in it.
  virtual void round(const uint8_t* buckets, const std::vector<uint64_t>& counts, const ReceiveSink& sink) = 0;
  virtual const ExchangeTally& tally() const = 0;
};

}  // namespace gsort
