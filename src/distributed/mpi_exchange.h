// Exchange through MPI_Alltoall (counts) and MPI_Alltoallv (records) on
// host buffers: the data plane of CPU-backend ranks, and of every rank until
// NcclExchange (exchange.h) is in.
#pragma once

#include <memory>

#include "src/distributed/exchange.h"
#include "src/distributed/rank_group.h"

namespace gsort {

class MpiExchange final : public Exchange {
 public:
  // Rounds send at most `chunk_records` records in all per rank; the
  // receive buffer for the worst case (every rank's whole chunk) is
  // reserved now, so a round allocates nothing between its collectives.
  // Throws Error when counts would not fit MPI's int (chunk too large).
  MpiExchange(const RankGroup& group, uint32_t record_size, uint64_t chunk_records);
  ~MpiExchange() override;

  void round(const uint8_t* buckets, const std::vector<uint64_t>& counts, const ReceiveSink& sink) override;
  const ExchangeTally& tally() const override { return tally_; }

 private:
  const RankGroup& group_;
  uint32_t record_size_;
  MPI_Datatype record_type_;  // one record, so counts are records, not bytes
  std::unique_ptr<uint8_t[]> receive_;
  std::vector<uint64_t> incoming_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  ExchangeTally tally_;
};

}  // namespace gsort
