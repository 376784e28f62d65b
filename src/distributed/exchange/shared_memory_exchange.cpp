#include "src/distributed/exchange/shared_memory_exchange.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>

#include "io/temp/stale_files.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"
#include "src/distributed/ranks/input_views.h"

namespace gsort {
namespace {

// Each rank's segment holds two slots per peer and is at most this large;
// a slot is at most kMaxSlotBytes and at least kMinSlotBytes. 128 MiB slots
// make each step's copies a few dozen pool tasks; steps are cheap (one
// barrier among the host's ranks), so smaller slots for many ranks cost
// little.
constexpr uint64_t kSegmentBytes = 256ull << 20;
constexpr uint64_t kMaxSlotBytes = 128ull << 20;
constexpr uint64_t kMinSlotBytes = 1ull << 20;
// One pool task copies at most this much.
constexpr uint64_t kCopyTaskBytes = 8ull << 20;

struct Copy {
  uint8_t* to;
  const uint8_t* from;
  uint64_t bytes;
};

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

uint64_t shared_slot_bytes(int ranks, uint32_t record_size, uint64_t round_records, uint64_t shm_free) {
  const uint64_t peers = static_cast<uint64_t>(std::max(ranks - 1, 1));
  const uint64_t n = static_cast<uint64_t>(std::max(ranks, 1));
  uint64_t slot = std::min(kMaxSlotBytes, kSegmentBytes / (2 * peers));
  // A round that fits in one slot needs no larger one.
  if (round_records <= slot / record_size) {
    slot = std::max(kMinSlotBytes, (round_records * record_size + kMinSlotBytes - 1) / kMinSlotBytes * kMinSlotBytes);
  }
  // Every rank's segment, in at most half of what is free: /dev/shm is
  // memory, and other jobs may want it.
  while (slot >= kMinSlotBytes && slot * 2 * peers * n > shm_free / 2) slot /= 2;
  if (slot < kMinSlotBytes || slot < record_size) return 0;
  return slot / record_size * record_size;
}

uint64_t shared_memory_free() {
  struct statvfs s {};
  if (::statvfs("/dev/shm", &s) != 0) return 0;
  return static_cast<uint64_t>(s.f_bavail) * s.f_frsize;
}

bool one_shared_memory(const RankGroup& group) {
  struct stat st {};
  const std::string boot = kernel_boot_id();
  // A rank that cannot tell its /dev/shm shares it with no one.
  const std::string mine = boot.empty() || ::stat(kSharedSegmentDir, &st) != 0
                               ? "unknown, rank " + std::to_string(group.rank)
                               : boot + " " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  const std::vector<std::string> all = gather_to_all(group, mine);
  return std::all_of(all.begin(), all.end(), [&](const std::string& s) { return s == all.front(); });
}

SharedMemoryExchange::SharedMemoryExchange(const RankGroup& group, uint32_t record_size, uint64_t round_records,
                                           ThreadPool& pool)
    : group_(group), record_size_(record_size), pool_(pool), incoming_(static_cast<size_t>(group.size)) {
  MPI_Comm_split_type(group.comm, MPI_COMM_TYPE_SHARED, group.rank, MPI_INFO_NULL, &host_);
  int on_host = 0;
  MPI_Comm_size(host_, &on_host);
  // The same on every rank: each sees fewer ranks on its host than in all.
  if (on_host != group.size) {
    MPI_Comm_free(&host_);
    throw UsageError("--exchange shm needs every rank on one host (" + std::to_string(on_host) + " of " +
                     std::to_string(group.size) + " here); use --exchange mpi or nccl");
  }
  if (!one_shared_memory(group)) {
    MPI_Comm_free(&host_);
    throw UsageError("--exchange shm needs every rank on one host, sharing one /dev/shm (these ranks see several); "
                     "use --exchange mpi or nccl");
  }
  uint64_t slot = shared_slot_bytes(group.size, record_size, round_records, shared_memory_free()), agreed = 0;
  // The test hook only makes slots smaller: the room must stay checked (below).
  if (slot && test_shared_slot_records()) slot = std::min(slot, test_shared_slot_records() * record_size);
  MPI_Allreduce(&slot, &agreed, 1, MPI_UINT64_T, MPI_MIN, group.comm);
  if (agreed == 0) {
    MPI_Comm_free(&host_);
    throw Error("--exchange shm: too little room in /dev/shm for the exchange's shared segment (use --exchange mpi)");
  }
  slot_bytes_ = agreed;
  const uint64_t segment = group.size > 1 ? 2 * slot_bytes_ * static_cast<uint64_t>(group.size - 1) : 0;
  int host_rank = 0;
  MPI_Comm_rank(host_, &host_rank);
  try {
    segments_ = std::make_unique<SharedSegment>(host_, host_rank, group.size, segment);
  } catch (...) {
    MPI_Comm_free(&host_);
    throw;
  }
  // The first steps would otherwise fault the fresh pages in one by one.
  if (segment) fault_in_pages(segments_->segment(host_rank), segment, pool_);
}

SharedMemoryExchange::~SharedMemoryExchange() {
  segments_.reset();
  MPI_Comm_free(&host_);
}

std::string SharedMemoryExchange::describe() const {
  return "shared memory (2 x " + mib(slot_bytes_) + " per pair of ranks)";
}

uint8_t* SharedMemoryExchange::slot(int owner, int to, uint64_t half) const {
  const uint64_t peer = static_cast<uint64_t>(to < owner ? to : to - 1);
  return segments_->segment(owner) + (peer * 2 + half) * slot_bytes_;
}

void SharedMemoryExchange::step_done() {
  // The copies into this rank's slots reach memory before the barrier, and
  // the peers' are read only after it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  MPI_Barrier(host_);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void SharedMemoryExchange::round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
                                 ReceiveSink& sink) {
  const int ranks = group_.size, self = group_.rank;
  const uint64_t rs = record_size_, slot_records = slot_bytes_ / rs;
  Stopwatch waiting;
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming_.data(), 1, MPI_UINT64_T, group_.comm);
  std::vector<uint8_t*> places(static_cast<size_t>(ranks), nullptr);
  uint64_t pieces = 0;
  for (int r = 0; r < ranks; ++r) {
    if (r == self) continue;
    const size_t i = static_cast<size_t>(r);
    if (incoming_[i]) places[i] = sink.place(r, incoming_[i]);
    pieces = std::max({pieces, (counts[i] + slot_records - 1) / slot_records,
                       (incoming_[i] + slot_records - 1) / slot_records});
    tally_.bytes_sent += counts[i] * rs;
    tally_.bytes_received += incoming_[i] * rs;
  }
  // Every rank takes the same steps (each ends in a barrier).
  uint64_t steps = 0;
  MPI_Allreduce(&pieces, &steps, 1, MPI_UINT64_T, MPI_MAX, group_.comm);
  std::vector<Copy> copies;
  // Step s fills slots with piece s and empties those filled with piece s-1
  // (the other half): one pass over memory per byte each way, overlapped.
  for (uint64_t step = 0; steps > 0 && step <= steps; ++step) {
    copies.clear();
    const auto add = [&](uint8_t* to, const uint8_t* from, uint64_t bytes) {
      for (uint64_t at = 0; at < bytes; at += kCopyTaskBytes) {
        copies.push_back({to + at, from + at, std::min(kCopyTaskBytes, bytes - at)});
      }
    };
    for (int r = 0; r < ranks; ++r) {
      if (r == self) continue;
      const size_t i = static_cast<size_t>(r);
      if (step < steps) {
        const uint64_t first = step * slot_records;
        if (first < counts[i]) {
          add(slot(self, r, step % 2), sends[i] + first * rs, std::min(slot_records, counts[i] - first) * rs);
        }
      }
      if (step > 0) {
        const uint64_t first = (step - 1) * slot_records;
        if (first < incoming_[i]) {
          add(places[i] + first * rs, slot(r, self, (step - 1) % 2), std::min(slot_records, incoming_[i] - first) * rs);
        }
      }
    }
    pool_.parallel_for(copies.size(), [&](size_t t) { std::copy_n(copies[t].from, copies[t].bytes, copies[t].to); });
    step_done();
  }
  tally_.wait_s += waiting.seconds();
  ++tally_.rounds;
  for (int r = 0; r < ranks; ++r) {
    if (r != self && incoming_[static_cast<size_t>(r)]) sink.landed(r, incoming_[static_cast<size_t>(r)]);
  }
}

}  // namespace gsort
