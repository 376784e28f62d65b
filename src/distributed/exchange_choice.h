// Which data plane moves the records between ranks (--exchange):
//   mpi   point-to-point MPI between host buffers (mpi_exchange.h): works
//         everywhere, 2-3 GB/s per rank between two H200s;
//   nccl  ncclSend/ncclRecv between the ranks' GPUs (nccl/nccl_exchange.h),
//         in builds with CUDA, MPI and nccl.h, where libnccl.so.2 loads;
//   auto  mpi. With pinned send and receive buffers (fifth session) NCCL
//         spends 0.24 s in the collectives where MPI spends 1.7-1.9 s for
//         6 GB per rank, but end to end NCCL won by only 3-5% (the rest is
//         reading and writing), and it needs a GPU per rank: auto stays MPI
//         until a run that needs no GPU can tell the two apart cheaply.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/config/sort_config.h"
#include "src/distributed/exchange.h"
#include "src/distributed/rank_group.h"

namespace gsort {

// Collective: every rank calls it with the same config (a failure is the
// same on every rank, or caught by the caller's fence). `described` gets
// "MPI" or "NCCL 2.28.9" for -v. Rounds send at most `round_records`
// records to each rank.
std::unique_ptr<Exchange> make_exchange(const RankGroup& group, const SortConfig& config, uint64_t round_records,
                                        std::string* described);

// Whether this build has the NCCL exchange.
bool nccl_exchange_built();

}  // namespace gsort
