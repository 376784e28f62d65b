#include "src/distributed/exchange/whole_slice.h"

#include <algorithm>

#include "src/core/stopwatch.h"
#include "src/distributed/partition/gpu_partition.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kReadTaskBytes = 64ull << 20;
// One round moves at most this much per pair of ranks, and the NCCL
// exchange stages at most kRoundStagingBytes of it per direction.
constexpr uint64_t kRoundPairBytes = 1ull << 30;
constexpr uint64_t kRoundStagingBytes = 4ull << 30;

}  // namespace

bool whole_slice_fits(uint64_t slice_records, uint32_t record_size, uint64_t memory_bytes) {
  // The slice, its buckets and a destination (1 byte, 4 past 256 ranks) per record while it
  // is partitioned; then the buckets beside the received records (about a
  // slice, a quarter more for an uneven partition) and their sort order.
  const double slice = static_cast<double>(slice_records) * record_size;
  const double partitioning = 2 * slice + 4.0 * static_cast<double>(slice_records);
  const double receiving = slice + 1.25 * (slice + 8.0 * static_cast<double>(slice_records));
  return std::max(partitioning, receiving) <= static_cast<double>(memory_bytes);
}

uint64_t whole_round_records(int ranks, uint32_t record_size) {
  const uint64_t peers = static_cast<uint64_t>(std::max(ranks - 1, 1));
  return std::max<uint64_t>(1, std::min(kRoundPairBytes, kRoundStagingBytes / peers) / record_size);
}

const uint8_t* PartitionedSlice::bucket(int rank, uint32_t record_size) const {
  return base + starts[static_cast<size_t>(rank)] * record_size;
}

ClassifiedSlice read_and_classify(const ShuffleInput& in, const RankGroup& group, const SortConfig& config,
                                  ThreadPool& pool) {
  const uint32_t rs = in.layout.record_size();
  const uint64_t n = in.slice.size();
  ClassifiedSlice out;
  const Stopwatch mapping;
  // A slice inside one input is partitioned from the page cache's pages
  // (mapped); one that spans inputs is read into a buffer first. That
  // buffer comes from mmap with huge pages (HostBuffer): on the GPU hosts'
  // VMs, zeroing fresh memory page by page costs more than reading it.
  out.mapped = in.inputs.map(in.slice.begin, n);
  if (out.mapped) {
    out.mapped->populate(pool);
    out.records = out.mapped->bytes();
  } else {
    out.read = HostBuffer::allocate_pageable(std::max<uint64_t>(n * rs, 1));
    const uint64_t per_task = std::max<uint64_t>(1, kReadTaskBytes / rs);
    pool.parallel_for((n + per_task - 1) / per_task, [&](size_t t) {
      const uint64_t first = t * per_task;
      in.inputs.read(in.slice.begin + first, std::min(per_task, n - first), out.read.data() + first * rs);
    });
    out.records = out.read.data();
  }
  out.map_s = mapping.seconds();
  test_fault_point("exchange", group.rank);
  const Stopwatch classifying;
  if (test_partition_on_cpu()) {
    out.gpu_refusal = "test hook";
  } else if (config.backend != BackendChoice::kCpu && !gpu_partition_pays(rs, pool.size(), group.local_size)) {
    out.gpu_refusal = "its threads split " + std::to_string(rs) + "-byte records faster";
  } else {
    out.partition = partition_on_gpu(config, in.layout, in.splitters, group.size, out.records, n, in.slice.begin,
                                     &out.gpu_refusal);
  }
  out.on_gpu = out.partition != nullptr;
  if (!out.partition) {
    auto on_host = std::make_unique<Partitioner>(in.layout, in.splitters, group.size, &pool);
    on_host->classify(out.records, n, in.slice.begin);
    out.partition = std::move(on_host);
  }
  out.classify_s = classifying.seconds();
  return out;
}

uint64_t records_to_send(const ClassifiedSlice& classified, int self) {
  uint64_t n = 0;
  for (size_t r = 0; r < classified.counts().size(); ++r) {
    if (static_cast<int>(r) != self) n += classified.counts()[r];
  }
  return n;
}

PartitionedSlice place_sends(const ClassifiedSlice& classified, int self, uint32_t record_size, uint8_t* room,
                             ThreadPool& pool) {
  PartitionedSlice out;
  out.counts = classified.counts();
  const size_t ranks = out.counts.size();
  out.starts.assign(ranks, 0);
  uint64_t in_buckets = 0;
  for (size_t r = 0; r < ranks; ++r) {
    out.starts[r] = in_buckets;
    if (static_cast<int>(r) != self) in_buckets += out.counts[r];
  }
  if (room) {
    out.base = room;
  } else {
    out.owned = HostBuffer::allocate_pageable(std::max<uint64_t>(in_buckets * record_size, 1));
    out.base = out.owned.data();
    // The GPU's copies into fresh pages run at a quarter of their speed
    // into faulted ones (docs/benchmarks.md): fault them in on the pool.
    if (classified.on_gpu) fault_in_pages(out.base, in_buckets * record_size, pool);
  }
  std::vector<uint8_t*> places(ranks);
  for (size_t r = 0; r < ranks; ++r) places[r] = out.base + out.starts[r] * record_size;
  places[static_cast<size_t>(self)] = nullptr;
  // Memory of its own where it was made here; the preparation's send
  // buffer is pinned (for NCCL) only after this.
  classified.partition->scatter(classified.records, places, BucketMemory::kPrivate);
  return out;
}

void place_own(const ClassifiedSlice& classified, int self, uint8_t* place) {
  std::vector<uint8_t*> places(classified.counts().size(), nullptr);
  places[static_cast<size_t>(self)] = place;
  classified.partition->scatter(classified.records, places, BucketMemory::kShared);
}

std::vector<uint64_t> incoming_counts(const RankGroup& group, const std::vector<uint64_t>& counts) {
  std::vector<uint64_t> incoming(static_cast<size_t>(group.size));
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming.data(), 1, MPI_UINT64_T, group.comm);
  return incoming;
}

void trade_buckets(const RankGroup& group, RankFence& fence, const PartitionedSlice& slice, uint32_t record_size,
                   uint64_t round_records, Exchange& exchange, ReceiveSink& sink) {
  const size_t ranks = static_cast<size_t>(group.size);
  uint64_t mine = 0, rounds = 0;
  for (size_t r = 0; r < ranks; ++r) {
    if (static_cast<int>(r) != group.rank) mine = std::max(mine, (slice.counts[r] + round_records - 1) / round_records);
  }
  MPI_Allreduce(&mine, &rounds, 1, MPI_UINT64_T, MPI_MAX, group.comm);
  std::vector<const uint8_t*> sends(ranks);
  std::vector<uint64_t> counts(ranks, 0);
  for (uint64_t round = 0; round < rounds; ++round) {
    for (size_t r = 0; r < ranks; ++r) {
      const uint64_t done = std::min(slice.counts[r], round * round_records);
      sends[r] = slice.bucket(static_cast<int>(r), record_size) + done * record_size;
      counts[r] = static_cast<int>(r) == group.rank ? 0 : std::min(round_records, slice.counts[r] - done);
    }
    fence.agree();  // every rank is ready for this round
    fence.attempt([&] { exchange.round(sends, counts, sink); });
  }
  fence.agree();
}

}  // namespace gsort
