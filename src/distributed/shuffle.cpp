#include "src/distributed/shuffle.h"

#include <algorithm>
#include <climits>
#include <exception>
#include <memory>
#include <thread>

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
  // Per chunk record: two slots (one exchanged while the next is read and
  // partitioned), each with the chunk, its bucket copy, its destination
  // (int) and position (byte); and n records of receive buffer (the worst
  // case: every rank sends its whole chunk here).
  const uint64_t per_record = (n + 4) * record_size + 2 * (sizeof(int) + 1);
  const uint64_t most = std::min(kMaxChunkBytes / record_size, static_cast<uint64_t>(INT_MAX) / n);
  plan.chunk_records = std::clamp<uint64_t>(memory_bytes / per_record, 1, std::max<uint64_t>(most, 1));
  uint64_t largest = 0;
  for (int r = 0; r < ranks; ++r) largest = std::max(largest, rank_slice(total_records, r, ranks).size());
  plan.rounds = (largest + plan.chunk_records - 1) / plan.chunk_records;
  return plan;
}

namespace {

// A chunk of the slice, read and partitioned, waiting for its round.
struct ShuffleSlot {
  ShuffleSlot(uint64_t records, uint32_t rs, const ShuffleInput& in, int ranks)
      : chunk(new uint8_t[records * rs]), buckets(new uint8_t[records * rs]),
        partitioner(in.layout, in.splitters, ranks) {}
  std::unique_ptr<uint8_t[]> chunk, buckets;
  Partitioner partitioner;
};

}  // namespace

// Round k's buckets are traded while a second thread reads and partitions
// round k+1's chunk into the other slot, so reading and partitioning are
// hidden behind the exchange (and the writes of what it received).
void shuffle_slice(const RankGroup& group, RankFence& fence, const ShuffleInput& in, const ShufflePlan& plan,
                   Exchange& exchange, ReceivedFiles& received) {
  const uint32_t rs = in.layout.record_size();
  ShuffleSlot slots[2] = {{plan.chunk_records, rs, in, group.size}, {plan.chunk_records, rs, in, group.size}};
  const ReceiveSink sink = [&received](int source, const uint8_t* records, uint64_t count) {
    received.append(source, records, count);
  };
  uint64_t next = in.slice.begin;
  const auto prepare = [&](uint64_t round, ShuffleSlot& slot) {
    if (round == plan.rounds / 2) test_fault_point("exchange", group.rank);
    const uint64_t count = std::min(plan.chunk_records, in.slice.end - next);
    in.inputs.read(next, count, slot.chunk.get());
    slot.partitioner.partition(slot.chunk.get(), count, next, slot.buckets.get());
    next += count;
  };
  if (plan.rounds > 0) fence.attempt([&] { prepare(0, slots[0]); });
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    fence.agree();  // every rank has this round's buckets: trade them
    std::exception_ptr prepare_error;
    std::thread reader;
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
    fence.attempt([&] { exchange.round(slot.buckets.get(), slot.partitioner.counts(), sink); });
    if (reader.joinable()) reader.join();
    fence.attempt([&] {
      if (prepare_error) std::rethrow_exception(prepare_error);
    });
  }
  fence.attempt([&] { received.finish(); });
  fence.agree();
}

}  // namespace gsort
