#include "src/distributed/nccl/nccl_exchange.h"

#include <cuda_runtime_api.h>

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

HostBuffer pinned(size_t bytes) {
  void* p = nullptr;
  GSORT_CUDA_CHECK(cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, cudaHostAllocPortable));
  return HostBuffer(p, bytes, [](void* q) { GSORT_CUDA_REPORT(cudaFreeHost(q)); });
}

// Every rank learns whether all ranks succeeded, so that none goes on into
// a collective that another has given up on.
bool all_ranks_ok(const RankGroup& group, bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, group.comm);
  return all == 1;
}

}  // namespace

std::string nccl_unavailable_reason() {
  std::string why;
  return NcclLibrary::load(&why) ? std::string() : why;
}

NcclExchange::NcclExchange(const RankGroup& group, uint32_t record_size, uint64_t chunk_records, int device)
    : group_(group), record_size_(record_size), nccl_(nullptr) {
  std::string failure;
  ncclUniqueId id{};
  try {
    std::string why;
    if (!gpu_usable(device, &why)) throw DeviceError("--exchange nccl: " + why);
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
  if (!all_ranks_ok(group, failure.empty())) {
    throw DeviceError(failure.empty() ? "the NCCL exchange could not start on another rank" : failure);
  }
  nccl_check(*nccl_, nccl_->comm_init_rank(&comm_, group.size, id, group.rank), "ncclCommInitRank");
  stream_ = std::make_unique<cuda::Stream>();
  const uint64_t ranks = static_cast<uint64_t>(group.size);
  send_ = cuda::DeviceBuffer(chunk_records * record_size);
  receive_ = cuda::DeviceBuffer(chunk_records * ranks * record_size);
  receive_host_ = pinned(chunk_records * ranks * record_size);
  incoming_.resize(ranks);
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

void NcclExchange::round(const uint8_t* buckets, const std::vector<uint64_t>& counts, const ReceiveSink& sink) {
  const int ranks = group_.size;
  const uint64_t rs = record_size_;
  Stopwatch waiting;
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming_.data(), 1, MPI_UINT64_T, group_.comm);
  std::vector<uint64_t> send_at(ranks + 1, 0), receive_at(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    send_at[r + 1] = send_at[r] + counts[r];
    receive_at[r + 1] = receive_at[r] + (r == group_.rank ? 0 : incoming_[r]);
  }
  try {
    const cudaStream_t s = stream_->get();
    GSORT_CUDA_CHECK(cudaMemcpyAsync(send_.data(), buckets, send_at[ranks] * rs, cudaMemcpyHostToDevice, s));
    nccl_check(*nccl_, nccl_->group_start(), "ncclGroupStart");
    for (int r = 0; r < ranks; ++r) {
      if (r == group_.rank) continue;  // its own bucket never leaves the host
      if (counts[r]) {
        nccl_check(*nccl_, nccl_->send(send_.data() + send_at[r] * rs, counts[r] * rs, ncclUint8, r, comm_, s), "ncclSend");
      }
      if (incoming_[r]) {
        nccl_check(*nccl_, nccl_->recv(receive_.data() + receive_at[r] * rs, incoming_[r] * rs, ncclUint8, r, comm_, s),
                   "ncclRecv");
      }
    }
    nccl_check(*nccl_, nccl_->group_end(), "ncclGroupEnd");
    GSORT_CUDA_CHECK(cudaMemcpyAsync(receive_host_.data(), receive_.data(), receive_at[ranks] * rs,
                                     cudaMemcpyDeviceToHost, s));
    stream_->synchronize();
  } catch (const Error&) {
    failed_ = true;
    throw;
  }
  tally_.wait_s += waiting.seconds();
  ++tally_.rounds;
  for (int r = 0; r < ranks; ++r) {
    if (r == group_.rank) {
      sink(r, buckets + send_at[r] * rs, counts[r]);
      continue;
    }
    tally_.bytes_sent += counts[r] * rs;
    tally_.bytes_received += incoming_[r] * rs;
    sink(r, receive_host_.data() + receive_at[r] * rs, incoming_[r]);
  }
}

}  // namespace gsort
