// The exchange phase: each rank streams its slice in chunks, partitions
// every chunk by the splitters and trades buckets with the other ranks in
// rounds; what it receives goes to its ReceivedFiles. Memory stays within
// the rank's budget: one chunk, its buckets, and the receive buffer.
#pragma once

#include <cstdint>

#include "src/core/thread_pool.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/local/received_files.h"
#include "src/distributed/partition/splitters.h"
#include "src/keys/key_layout.h"

namespace gsort {

struct ShufflePlan {
  uint64_t chunk_records = 1;  // read and partitioned per round, per rank
  uint64_t rounds = 0;         // the same on every rank: the largest slice's
};

// Sizes the rounds from the budget (-S per rank): a chunk, its buckets and
// room to receive every rank's chunk, capped so rounds stay quick to start.
ShufflePlan plan_shuffle(uint64_t total_records, int ranks, uint32_t record_size, uint64_t memory_bytes);

struct ShuffleInput {
  const ConcatenatedInputs& inputs;
  RecordRange slice;
  const KeyLayout& layout;
  const Splitters& splitters;
};

// Collective. Failures (this rank's or another's) end every rank's
// exchange together: RanksFailed from the fence.
// Partitions on `pool`'s threads.
void shuffle_slice(const RankGroup& group, RankFence& fence, const ShuffleInput& in, const ShufflePlan& plan,
                   Exchange& exchange, ReceivedFiles& received, ThreadPool& pool);

}  // namespace gsort
