#include "src/distributed/exchange/shuffle.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <thread>

#include "src/core/scoped_join.h"
#include "src/distributed/partition/partition.h"
#include "src/distributed/exchange/receive_sinks.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// One round's chunk stops growing here: past it, rounds gain little.
constexpr uint64_t kMaxChunkBytes = 64ull << 20;

}  // namespace

ShufflePlan plan_shuffle(uint64_t total_records, int ranks, uint32_t record_size, uint64_t memory_bytes) {
  ShufflePlan plan;
  const uint64_t n = static_cast<uint64_t>(ranks);
  // Per chunk record: two slots (one exchanged while the next is read and
  // partitioned), each with the chunk, its bucket copy and its destination
  // (4 bytes); and a staging slot for every rank's bucket (the worst case:
  // every rank sends its whole chunk here).
  const uint64_t per_record = (n + 4) * record_size + 2 * sizeof(uint32_t);
  const uint64_t most = kMaxChunkBytes / record_size;
  plan.chunk_records = std::clamp<uint64_t>(memory_bytes / per_record, 1, std::max<uint64_t>(most, 1));
  uint64_t largest = 0;
  for (int r = 0; r < ranks; ++r) largest = std::max(largest, rank_slice(total_records, r, ranks).size());
  plan.rounds = (largest + plan.chunk_records - 1) / plan.chunk_records;
  return plan;
}

namespace {

// A chunk of the slice, read and partitioned, waiting for its round.
struct ShuffleSlot {
  ShuffleSlot(uint64_t records, uint32_t rs, const ShuffleInput& in, int ranks, ThreadPool& pool)
      : chunk(new uint8_t[records * rs]), buckets(new uint8_t[records * rs]),
        partitioner(in.layout, in.splitters, ranks, &pool) {}
  std::unique_ptr<uint8_t[]> chunk, buckets;
  Partitioner partitioner;
};

}  // namespace

// Round k's buckets are traded while a second thread reads and partitions
// round k+1's chunk into the other slot, so reading and partitioning are
// hidden behind the exchange (and the writes of what it received).
void shuffle_slice(const RankGroup& group, RankFence& fence, const ShuffleInput& in, const ShufflePlan& plan,
                   Exchange& exchange, ReceivedFiles& received, ThreadPool& pool) {
  const uint32_t rs = in.layout.record_size();
  const size_t ranks = static_cast<size_t>(group.size);
  ShuffleSlot slots[2] = {{plan.chunk_records, rs, in, group.size, pool},
                          {plan.chunk_records, rs, in, group.size, pool}};
  FileSink sink(received, group.size, rs, plan.chunk_records);
  uint64_t next = in.slice.begin;
  const auto prepare = [&](uint64_t round, ShuffleSlot& slot) {
    if (round == plan.rounds / 2) test_fault_point("exchange", group.rank);
    const uint64_t count = std::min(plan.chunk_records, in.slice.end - next);
    in.inputs.read(next, count, slot.chunk.get());
    slot.partitioner.partition(slot.chunk.get(), count, next, slot.buckets.get());
    next += count;
  };
  std::vector<const uint8_t*> sends(ranks);
  std::vector<uint64_t> counts(ranks);
  if (plan.rounds > 0) fence.attempt([&] { prepare(0, slots[0]); });
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    fence.agree();  // every rank has this round's buckets: trade them
    std::exception_ptr prepare_error;
    std::thread reader;
    ScopedJoin join_reader(reader);
    if (round + 1 < plan.rounds && !fence.failed()) {
      reader = std::thread([&, round] {
        try {
          prepare(round + 1, slots[(round + 1) % 2]);
        } catch (...) {
          prepare_error = std::current_exception();
        }
      });
    }
    const ShuffleSlot& slot = slots[round % 2];
    uint64_t at = 0;
    for (size_t d = 0; d < ranks; ++d) {
      sends[d] = slot.buckets.get() + at * rs;
      counts[d] = slot.partitioner.counts()[d];
      at += counts[d];
    }
    fence.attempt([&] {
      sink.keep_own(group.rank, sends[static_cast<size_t>(group.rank)], counts[static_cast<size_t>(group.rank)]);
      counts[static_cast<size_t>(group.rank)] = 0;
    });
    fence.attempt([&] { exchange.round(sends, counts, sink); });
    join_reader.join();
    fence.attempt([&] {
      if (prepare_error) std::rethrow_exception(prepare_error);
    });
  }
  fence.attempt([&] { received.finish(); });
  fence.agree();
}

}  // namespace gsort
