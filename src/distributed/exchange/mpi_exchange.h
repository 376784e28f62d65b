// Exchange through MPI on host buffers: the counts by MPI_Alltoall, the
// records by nonblocking point-to-point messages straight from the senders'
// buckets into the places the sink gives (no staging copy). The data plane
// of CPU-backend ranks, and of builds without NCCL.
#pragma once

#include <vector>

#include "src/distributed/exchange/exchange.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

class MpiExchange final : public Exchange {
 public:
  MpiExchange(const RankGroup& group, uint32_t record_size);

  void round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
             ReceiveSink& sink) override;
  const ExchangeTally& tally() const override { return tally_; }

 private:
  const RankGroup& group_;
  uint32_t record_size_;
  std::vector<uint64_t> incoming_;
  std::vector<MPI_Request> requests_;
  ExchangeTally tally_;
};

}  // namespace gsort
