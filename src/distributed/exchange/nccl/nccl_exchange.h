// Exchange through NCCL between the ranks' GPUs: each round's buckets are
// copied to the device, every pair of ranks swaps its buckets with
// ncclSend/ncclRecv inside one group (NVLink or the network, whatever NCCL
// finds), and what arrived is copied from the device straight into the
// places the sink gives (pinned memory there makes that copy run at full
// speed). The counts still travel by MPI (a few bytes). NCCL moves two
// orders of magnitude more per rank than MPI between host buffers
// (docs/benchmarks.md), so even with the copies to and from the device
// this is the faster data plane wherever every rank has a GPU.
//
// The communicator is made from an ncclUniqueId that rank 0 broadcasts over
// MPI. NVLink multicast (NVLS) is switched off unless the user set
// NCCL_NVLS_ENABLE: point-to-point traffic gains nothing from it, and it
// takes device memory and set-up time.
#pragma once

#include <memory>

#include "src/cuda/resources.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/exchange/nccl/nccl_library.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

class NcclExchange final : public Exchange {
 public:
  // Collective over the group. Uses CUDA device `device`; rounds send at
  // most `round_records` records to each rank. Throws DeviceError when NCCL
  // cannot be loaded or the communicator cannot be made (on every rank:
  // the caller agrees on failure through its fence).
  NcclExchange(const RankGroup& group, uint32_t record_size, uint64_t round_records, int device);
  ~NcclExchange() override;

  void round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
             ReceiveSink& sink) override;
  const ExchangeTally& tally() const override { return tally_; }
  bool wants_pinned_buffers() const override { return true; }

  // "NCCL 2.28.9", for -v.
  std::string describe() const;

 private:
  void connect_peers();

  const RankGroup& group_;
  uint32_t record_size_;
  const NcclLibrary* nccl_;
  ncclComm_t comm_ = nullptr;
  bool failed_ = false;  // a call failed: the communicator is aborted, not destroyed
  // Made after cudaSetDevice(device), so on that device.
  std::unique_ptr<cuda::Stream> stream_;
  cuda::DeviceBuffer send_, receive_;  // round_records for each other rank
  std::vector<uint64_t> incoming_;
  ExchangeTally tally_;
};

// Whether NCCL can be loaded here ("" if so, else why not): the auto choice
// of the data plane asks this on every rank before choosing.
std::string nccl_unavailable_reason();

}  // namespace gsort
