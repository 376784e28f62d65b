// Which data plane moves the records between ranks (--exchange):
//   mpi   point-to-point MPI between host buffers (mpi_exchange.h): works
//         everywhere, 2-3 GB/s per rank between two H200s;
//   nccl  ncclSend/ncclRecv between the ranks' GPUs (nccl/nccl_exchange.h),
//         in builds with CUDA, MPI and nccl.h, where libnccl.so.2 loads;
//   auto  mpi: on two H200s (docs/benchmarks.md, fourth session) both
//         planes took the same time end to end, the copies between pageable
//         host buffers and the GPUs costing what NVLink saves; auto should
//         choose nccl once the exchanged buffers are pinned or stay on the GPU.
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
