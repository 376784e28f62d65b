// The data plane of the distributed sort: one collective round moves, for
// every other rank, the records this rank sends it, and lands what the
// others send here where a sink says. The driver partitions and calls
// round() in a loop. A rank's records for itself never enter the exchange:
// the driver keeps them (a copy on the host is cheaper than any transport).
//
// MpiExchange (mpi_exchange.h) carries host buffers through MPI;
// NcclExchange (nccl/nccl_exchange.h) stages them through the GPUs and moves
// them with ncclSend/ncclRecv.
#pragma once

#include <cstdint>
#include <vector>

namespace gsort {

// Where one round's incoming records go.
class ReceiveSink {
 public:
  virtual ~ReceiveSink() = default;
  // Room for `count` records from rank `source` (never this rank). Called
  // for every source that sends records this round, in rank order, before
  // the records move; the room stays valid until landed(source).
  virtual uint8_t* place(int source, uint64_t count) = 0;
  // The records placed for `source` have arrived; called in rank order for
  // the same sources as place().
  virtual void landed(int source, uint64_t count) = 0;
};

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
  // Collective; every rank calls it the same number of times. For each
  // rank d other than this one, sends[d] holds counts[d] records for it
  // (at most the round_records the exchange was made for); the entries for
  // this rank are ignored. Never throws before the data has moved (what
  // the sink throws propagates), so a failing rank cannot leave the others
  // waiting in it.
  virtual void round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
                     ReceiveSink& sink) = 0;
  virtual const ExchangeTally& tally() const = 0;
  // Whether the buckets it sends and the places it lands records in should
  // be pinned before a round (it copies them to and from a device). Others
  // let the receive buffer be pinned for the local sort while they fill it.
  virtual bool wants_pinned_buffers() const { return false; }
};

}  // namespace gsort
