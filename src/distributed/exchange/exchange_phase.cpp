#include "src/distributed/exchange/exchange_phase.h"

#include <algorithm>
#include <memory>
#include <string>

#include "src/core/stopwatch.h"
#include "src/distributed/exchange/exchange_choice.h"
#include "src/distributed/exchange/whole_slice_exchange.h"

namespace gsort {
namespace {

uint64_t largest_slice(uint64_t total_records, int ranks) {
  uint64_t largest = 0;
  for (int r = 0; r < ranks; ++r) largest = std::max(largest, rank_slice(total_records, r, ranks).size());
  return largest;
}

struct StartedExchange {
  std::unique_ptr<Exchange> exchange;
  std::string data_plane;  // for -v
};

// Its own attempt: making an exchange is collective, so every rank must
// reach it (make_exchange votes on failures inside). The caller agrees.
StartedExchange start_exchange(RankContext& rank, uint64_t round_records, RankStats& stats) {
  StartedExchange started;
  const Stopwatch starting;
  rank.fence.attempt([&] {
    started.exchange = make_exchange(rank.group, rank.config, round_records, rank.pool, &started.data_plane);
  });
  stats.start_s = starting.seconds();
  return started;
}

// Whole slices are read, classified and their records for other ranks
// placed on another thread while the exchange starts here (NCCL's set-up
// takes a second or two); only this thread calls MPI.
ReceivedRecords exchange_whole_slices(RankContext& rank, const ShuffleInput& in, uint64_t round_records,
                                      RankStats& stats, StartedExchange& started) {
  WholeSliceReading reading = WholeSliceReading::begin(rank, in, stats);
  started = start_exchange(rank, round_records, stats);
  WholeSliceClassified classified = std::move(reading).classified();
  WholeSliceLanding landing = std::move(classified).land(*started.exchange, round_records, started.data_plane);
  WholeSliceTraded traded = std::move(landing).trade(*started.exchange);
  return std::move(traded).settle();
}

ReceivedRecords exchange_streamed(RankContext& rank, const ShuffleInput& in, const ShufflePlan& plan,
                                  uint64_t round_records, RankStats& stats, StartedExchange& started) {
  started = start_exchange(rank, round_records, stats);
  rank.fence.agree();
  rank.log.info("exchange: the slices are streamed (larger than -S allows whole), " + std::to_string(plan.rounds) +
                " rounds of up to " + std::to_string(plan.chunk_records) + " records per rank, through " +
                started.data_plane);
  ReceivedInFiles received;
  rank.fence.attempt([&] {
    received.files = std::make_unique<ReceivedFiles>(rank.config.temp_dir, rank.group.size, rank.config.record_size);
  });
  rank.fence.agree();
  shuffle_slice(rank.group, rank.fence, in, plan, *started.exchange, *received.files, rank.pool);
  const uint64_t count = received.files->records();
  stats.received_records = count;
  return ReceivedRecords{count, std::move(received)};
}

}  // namespace

ReceivedRecords exchange_records(RankContext& rank, const ShuffleInput& in, RankStats& stats) {
  const Stopwatch t;
  const uint32_t rs = rank.config.record_size;
  const uint64_t total = in.inputs.total_records(), largest = largest_slice(total, rank.group.size);
  // Shared decisions, from the least -S of all ranks (rank_context.h).
  const bool whole = whole_slice_fits(largest, rs, rank.least_memory_bytes);
  const ShufflePlan plan = plan_shuffle(total, rank.group.size, rs, rank.least_memory_bytes);
  // No pair trades more than the largest slice: small inputs get small
  // staging buffers (device memory for NCCL, /dev/shm for shm).
  const uint64_t round_records = std::max<uint64_t>(
      1, std::min(largest, whole ? whole_round_records(rank.group.size, rs) : plan.chunk_records));
  StartedExchange started;
  ReceivedRecords received = whole ? exchange_whole_slices(rank, in, round_records, stats, started)
                                   : exchange_streamed(rank, in, plan, round_records, stats, started);
  const ExchangeTally& tally = started.exchange->tally();
  stats.bytes_sent = tally.bytes_sent;
  stats.bytes_received = tally.bytes_received;
  stats.rounds = tally.rounds;
  stats.exchange_wait_s = tally.wait_s;
  stats.exchange_s = t.seconds();
  return received;
}

}  // namespace gsort
