#include "src/distributed/exchange/nccl/nccl_exchange.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/cuda/check.h"

namespace gsort {
namespace {

const NcclLibrary& load_nccl() {
  std::string why;
  const NcclLibrary* lib = NcclLibrary::load(&why);
  if (!lib) throw DeviceError("the NCCL exchange needs NCCL: " + why);
  return *lib;
}

}  // namespace

std::string nccl_unavailable_reason() {
  std::string why;
  return NcclLibrary::load(&why) ? std::string() : why;
}

NcclExchange::NcclExchange(const RankGroup& group, uint32_t record_size, uint64_t round_records, int device)
    : group_(group), record_size_(record_size), nccl_(nullptr) {
  std::string failure;
  ncclUniqueId id{};
  try {
    std::string why;
    if (!gpu_usable(device, &why)) throw DeviceError("--exchange nccl: " + why);
    // NCCL refuses two ranks of one communicator on one GPU.
    if (const int gpus = cuda_device_count(); group.local_size > gpus) {
      throw DeviceError("--exchange nccl needs a GPU per rank: " + std::to_string(group.local_size) +
                        " ranks on this host, " + std::to_string(gpus) + " GPUs (use --exchange mpi)");
    }
    nccl_ = &load_nccl();
    GSORT_CUDA_CHECK(cudaSetDevice(device));
    ::setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
    if (group.rank == 0) nccl_check(*nccl_, nccl_->get_unique_id(&id), "ncclGetUniqueId");
  } catch (const Error& e) {
    failure = e.what();
  }
  // Rank 0's id reaches everyone even when some rank failed, so that the
  // broadcast and the vote below match on every rank.
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, group.comm);
  if (!on_every_rank(group, failure.empty())) {
    throw DeviceError(failure.empty() ? "the NCCL exchange could not start on another rank" : failure);
  }
  nccl_check(*nccl_, nccl_->comm_init_rank(&comm_, group.size, id, group.rank), "ncclCommInitRank");
  stream_ = std::make_unique<cuda::Stream>();
  const uint64_t peers = static_cast<uint64_t>(group.size - 1);
  // At least a byte each: connect_peers() sends one.
  send_ = cuda::DeviceBuffer(std::max<uint64_t>(round_records * peers * record_size, 1));
  receive_ = cuda::DeviceBuffer(std::max<uint64_t>(round_records * peers * record_size, 1));
  incoming_.resize(static_cast<size_t>(group.size));
  connect_peers();
}

// NCCL connects a pair of ranks at their first send/recv, which takes
// about a second (docs/benchmarks.md): one byte to and from every other
// rank now, while the caller's reading goes on, keeps that out of the
// first round.
void NcclExchange::connect_peers() {
  try {
    const cudaStream_t s = stream_->get();
    nccl_check(*nccl_, nccl_->group_start(), "ncclGroupStart");
    for (int r = 0; r < group_.size; ++r) {
      if (r == group_.rank) continue;
      nccl_check(*nccl_, nccl_->send(send_.data(), 1, ncclUint8, r, comm_, s), "ncclSend");
      nccl_check(*nccl_, nccl_->recv(receive_.data(), 1, ncclUint8, r, comm_, s), "ncclRecv");
    }
    nccl_check(*nccl_, nccl_->group_end(), "ncclGroupEnd");
    stream_->synchronize();
  } catch (const Error&) {
    failed_ = true;
    throw;
  }
}

NcclExchange::~NcclExchange() {
  if (!comm_) return;
  // A failed round may leave operations in flight: abort rather than wait.
  if (failed_) {
    nccl_->comm_abort(comm_);
  } else {
    nccl_->comm_destroy(comm_);
  }
}

std::string NcclExchange::describe() const {
  const int v = nccl_ ? nccl_->version : 0;
  return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

void NcclExchange::round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
                         ReceiveSink& sink) {
  const int ranks = group_.size, self = group_.rank;
  const uint64_t rs = record_size_;
  Stopwatch waiting;
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming_.data(), 1, MPI_UINT64_T, group_.comm);
  // Device offsets (records) of each peer's piece, packed in rank order.
  std::vector<uint64_t> send_at(ranks + 1, 0), receive_at(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    const bool peer = r != self;
    send_at[r + 1] = send_at[r] + (peer ? counts[r] : 0);
    receive_at[r + 1] = receive_at[r] + (peer ? incoming_[r] : 0);
  }
  std::vector<uint8_t*> places(static_cast<size_t>(ranks), nullptr);
  for (int r = 0; r < ranks; ++r) {
    if (r != self && incoming_[r]) places[r] = sink.place(r, incoming_[r]);
  }
  try {
    const cudaStream_t s = stream_->get();
    for (int r = 0; r < ranks; ++r) {
      if (r == self || !counts[r]) continue;
      GSORT_CUDA_CHECK(
          cudaMemcpyAsync(send_.data() + send_at[r] * rs, sends[r], counts[r] * rs, cudaMemcpyHostToDevice, s));
    }
    nccl_check(*nccl_, nccl_->group_start(), "ncclGroupStart");
    for (int r = 0; r < ranks; ++r) {
      if (r == self) continue;
      if (counts[r]) {
        nccl_check(*nccl_, nccl_->send(send_.data() + send_at[r] * rs, counts[r] * rs, ncclUint8, r, comm_, s), "ncclSend");
      }
      if (incoming_[r]) {
        nccl_check(*nccl_, nccl_->recv(receive_.data() + receive_at[r] * rs, incoming_[r] * rs, ncclUint8, r, comm_, s),
                   "ncclRecv");
      }
    }
    nccl_check(*nccl_, nccl_->group_end(), "ncclGroupEnd");
    for (int r = 0; r < ranks; ++r) {
      if (r == self || !incoming_[r]) continue;
      GSORT_CUDA_CHECK(cudaMemcpyAsync(places[r], receive_.data() + receive_at[r] * rs, incoming_[r] * rs,
                                       cudaMemcpyDeviceToHost, s));
    }
    stream_->synchronize();
  } catch (const Error&) {
    failed_ = true;
    throw;
  }
  tally_.wait_s += waiting.seconds();
  ++tally_.rounds;
  for (int r = 0; r < ranks; ++r) {
    if (r == self) continue;
    tally_.bytes_sent += counts[r] * rs;
    tally_.bytes_received += incoming_[r] * rs;
    if (incoming_[r]) sink.landed(r, incoming_[r]);
  }
}

}  // namespace gsort
