#include "src/distributed/exchange/whole_slice_exchange.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// Whether received records may land in memory at all (--verify checks
// them in files; a test hook forces files).
bool may_receive_in_memory(const SortConfig& config) { return !config.verify && !test_receive_in_files(); }

// Starts making the local sort's buffers (and backend) for a partition up
// to a quarter above the mean, as whole_slice_fits allows for, where -S
// holds them beside the slice.
std::optional<ReceivePreparation> prepare_receive(RankContext& rank, const ShuffleInput& in) {
  const uint64_t n = static_cast<uint64_t>(rank.group.size), slice = in.slice.size();
  const uint64_t receive = in.inputs.total_records() / n * 5 / 4 + 1;
  uint64_t send = std::min(slice, slice * (n - 1) / n * 5 / 4 + 1);
  const auto fits = [&] { return (slice + receive + send) * rank.config.record_size <= rank.config.memory_bytes; };
  if (!fits()) send = 0;
  if (!fits()) return std::nullopt;
  return ReceivePreparation(rank.config, rank.layout, rank.pool, receive, send);
}

}  // namespace

// The reading thread and what it makes.
struct WholeSliceReading::Reader {
  Reader(RankContext& context, const ShuffleInput& input, RankStats& rank_stats)
      : rank(context), in(input), stats(rank_stats) {
    if (may_receive_in_memory(rank.config)) preparation = prepare_receive(rank, in);
    thread = std::thread([this] {
      try {
        read();
      } catch (...) {
        error = std::current_exception();
      }
    });
  }

  // Reads and classifies the slice, then places the records for other
  // ranks: in the preparation's send buffer where it has room.
  void read() {
    const Stopwatch reading;
    slice = read_and_classify(in, rank.group, rank.config, rank.pool);
    stats.partitioned_on_gpu = slice.on_gpu ? 1 : 0;
    stats.map_s = slice.map_s;
    stats.classify_s = slice.classify_s;
    const Stopwatch placing;
    const uint64_t to_send = records_to_send(slice, rank.group.rank);
    uint8_t* room = preparation ? preparation->send_room(to_send) : nullptr;
    sends = place_sends(slice, rank.group.rank, rank.config.record_size, room, rank.pool);
    stats.place_s = placing.seconds();
    stats.read_s = reading.seconds();
  }

  RankContext& rank;
  const ShuffleInput in;
  RankStats& stats;
  std::optional<ReceivePreparation> preparation;
  ClassifiedSlice slice;
  PartitionedSlice sends;
  std::exception_ptr error;
  std::thread thread;
  ScopedJoin join{thread};  // last: the thread ends before what it uses goes
};

WholeSliceReading WholeSliceReading::begin(RankContext& rank, const ShuffleInput& in, RankStats& stats) {
  return WholeSliceReading(std::make_unique<Reader>(rank, in, stats));
}

WholeSliceReading::WholeSliceReading(std::unique_ptr<Reader> reader) : reader_(std::move(reader)) {}
WholeSliceReading::WholeSliceReading(WholeSliceReading&&) noexcept = default;
WholeSliceReading::~WholeSliceReading() = default;

WholeSliceClassified WholeSliceReading::classified() && {
  const std::unique_ptr<Reader> r = std::move(reader_);
  r->join.join();
  RankContext& rank = r->rank;
  if (r->slice.partition) {
    const std::string where = r->slice.on_gpu ? "GPU (rank 0: " + r->slice.partition->describe() + ")"
                                              : "CPU (rank 0: " + r->slice.gpu_refusal + ")";
    rank.log.info("exchange: the slice is partitioned on the " + where);
  }
  rank.fence.attempt([&] {
    if (r->error) std::rethrow_exception(r->error);
  });
  rank.fence.agree();
  return WholeSliceClassified(rank, r->stats, std::move(r->slice), std::move(r->sends), std::move(r->preparation));
}

WholeSliceClassified::WholeSliceClassified(RankContext& rank, RankStats& stats, ClassifiedSlice slice,
                                           PartitionedSlice sends, std::optional<ReceivePreparation> preparation)
    : rank_(rank), stats_(stats), slice_(std::move(slice)), sends_(std::move(sends)),
      preparation_(std::move(preparation)) {}

WholeSliceLanding WholeSliceClassified::land(Exchange& exchange, uint64_t round_records,
                                             const std::string& data_plane) && {
  const int self = rank_.group.rank;
  const uint32_t rs = rank_.config.record_size;
  LandingCounts counts;
  counts.from_each = incoming_counts(rank_.group, slice_.counts());
  for (uint64_t n : counts.from_each) counts.incoming += n;
  counts.own = slice_.counts()[static_cast<size_t>(self)];
  counts.send = records_to_send(slice_, self);
  const bool in_memory = may_receive_in_memory(rank_.config) && counts.incoming < UINT32_MAX &&
                         counts.incoming * (rs + 8) + counts.send * rs <= rank_.config.memory_bytes;
  const bool pin_first = exchange.wants_pinned_buffers();
  std::unique_ptr<Landing> landing;
  rank_.fence.attempt([&] {
    const Stopwatch allocating;
    landing = choose_landing(rank_, counts, in_memory, pin_first, std::move(preparation_), &sends_.owned,
                             round_records);
    stats_.allocate_s = allocating.seconds();
  });
  rank_.fence.agree();
  rank_.log.info("exchange: whole slices, " + std::string(in_memory ? "received in memory" : "received in files") +
                 " (rank 0), rounds of up to " + std::to_string(round_records) +
                 " records per pair of ranks, through " + data_plane);
  return WholeSliceLanding(rank_, stats_, std::move(slice_), std::move(sends_), std::move(landing), counts.incoming,
                           round_records);
}

WholeSliceLanding::WholeSliceLanding(RankContext& rank, RankStats& stats, ClassifiedSlice slice,
                                     PartitionedSlice sends, std::unique_ptr<Landing> landing, uint64_t incoming,
                                     uint64_t round_records)
    : rank_(rank), stats_(stats), slice_(std::move(slice)), sends_(std::move(sends)), landing_(std::move(landing)),
      incoming_(incoming), round_records_(round_records) {}

WholeSliceTraded WholeSliceLanding::trade(Exchange& exchange) && {
  // The own bucket's copy (memory bandwidth) runs beside the trade (the
  // link's); they write disjoint parts of the buffer.
  double own_s = 0;
  std::exception_ptr own_error;
  std::thread placing_own([&] {
    try {
      const Stopwatch placing;
      place_own(slice_, rank_.group.rank, landing_->own_place());
      own_s = placing.seconds();
    } catch (...) {
      own_error = std::current_exception();
    }
  });
  ScopedJoin join_placing(placing_own);
  trade_buckets(rank_.group, rank_.fence, sends_, rank_.config.record_size, round_records_, exchange,
                landing_->sink());
  join_placing.join();
  stats_.place_s += own_s;
  sends_.owned = HostBuffer();
  slice_ = ClassifiedSlice();  // the slice and its destinations
  return WholeSliceTraded(rank_, stats_, std::move(landing_), incoming_, own_error);
}

WholeSliceTraded::WholeSliceTraded(RankContext& rank, RankStats& stats, std::unique_ptr<Landing> landing,
                                   uint64_t incoming, std::exception_ptr own_error)
    : rank_(rank), stats_(stats), landing_(std::move(landing)), incoming_(incoming),
      own_error_(std::move(own_error)) {}

ReceivedRecords WholeSliceTraded::settle() && {
  rank_.fence.attempt([&] {
    if (own_error_) std::rethrow_exception(own_error_);
    landing_->settle(stats_);
  });
  rank_.fence.agree();
  stats_.received_records = incoming_;
  return std::move(*landing_).received();
}

}  // namespace gsort
