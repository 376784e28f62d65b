#include "src/distributed/shuffle.h"

#include <algorithm>
#include <climits>
#include <memory>

#include "src/distributed/partition.h"
#include "src/distributed/test_fault.h"

namespace gsort {
namespace {

// One round's chunk stops growing here: past it, rounds gain little.
constexpr uint64_t kMaxChunkBytes = 64ull << 20;

}  // namespace

ShufflePlan plan_shuffle(uint64_t total_records, int ranks, uint32_t record_size, uint64_t memory_bytes) {
  ShufflePlan plan;
  const uint64_t n = static_cast<uint64_t>(ranks);
  // Per chunk record: the chunk, its bucket copy, its destination (int)
  // and n records of receive buffer (the worst case: every rank sends its
  // whole chunk here).
  const uint64_t per_record = (n + 2) * record_size + sizeof(int);
  const uint64_t most = std::min(kMaxChunkBytes / record_size, static_cast<uint64_t>(INT_MAX) / n);
  plan.chunk_records = std::clamp<uint64_t>(memory_bytes / per_record, 1, std::max<uint64_t>(most, 1));
  uint64_t largest = 0;
  for (int r = 0; r < ranks; ++r) largest = std::max(largest, rank_slice(total_records, r, ranks).size());
  plan.rounds = (largest + plan.chunk_records - 1) / plan.chunk_records;
  return plan;
}

void shuffle_slice(const RankGroup& group, RankFence& fence, const ShuffleInput& in, const ShufflePlan& plan,
                   Exchange& exchange, ReceivedFiles& received) {
  const uint32_t rs = in.layout.record_size();
  std::unique_ptr<uint8_t[]> chunk(new uint8_t[plan.chunk_records * rs]);
  std::unique_ptr<uint8_t[]> buckets(new uint8_t[plan.chunk_records * rs]);
  Partitioner partitioner(in.layout, in.splitters, group.size);
  const ReceiveSink sink = [&received](int source, const uint8_t* records, uint64_t count) {
    received.append(source, records, count);
  };
  uint64_t next = in.slice.begin;
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    fence.attempt([&] {
      if (round == plan.rounds / 2) test_fault_point("exchange", group.rank);
      const uint64_t count = std::min(plan.chunk_records, in.slice.end - next);
      in.inputs.read(next, count, chunk.get());
      partitioner.partition(chunk.get(), count, next, buckets.get());
      next += count;
    });
    fence.agree();  // every rank has its buckets: trade them
    fence.attempt([&] { exchange.round(buckets.get(), partitioner.counts(), sink); });
  }
  fence.attempt([&] { received.finish(); });
  fence.agree();
}

}  // namespace gsort
