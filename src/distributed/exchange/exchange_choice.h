// Which data plane moves the records between ranks (--exchange):
//   mpi   point-to-point MPI between host buffers (mpi_exchange.h): works
//         everywhere, at a few GB/s per rank;
//   nccl  ncclSend/ncclRecv between the ranks' GPUs (nccl/nccl_exchange.h),
//         in builds with CUDA, MPI and nccl.h, where libnccl.so.2 loads;
//   shm   copies through an MPI shared window (shared_memory_exchange.h),
//         for ranks that all share one host;
//   auto  shm where every rank is on one host, sharing one /dev/shm
//         (one_shared_memory) with room for the segments, else mpi.
//         Ranks of one host hold their records in host memory: two
//         copies through shared memory need no start-up, no pinning and
//         no PCIe crossing, where NCCL's start and pinning
//         took several times its trade. Across hosts NCCL beats MPI in the
//         collectives several times over but needs a GPU per rank, so it
//         stays a choice, not auto (figures: docs/benchmarks.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective: every rank calls it with the same config (a failure is the
// same on every rank, or caught by the caller's fence). `described` gets
// "MPI", "NCCL 2.28.9" or "shared memory (...)" for -v. Rounds send at most
// `round_records` records to each rank. The shared-memory exchange copies on
// `pool`.
std::unique_ptr<Exchange> make_exchange(const RankGroup& group, const SortConfig& config, uint64_t round_records,
                                        ThreadPool& pool, std::string* described);

// Whether this build has the NCCL exchange.
bool nccl_exchange_built();

}  // namespace gsort
