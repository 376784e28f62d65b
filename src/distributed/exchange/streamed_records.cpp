#include "src/distributed/exchange/streamed_records.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "io/input/input_set.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/rank0_stream.h"
#include "src/distributed/partition/splitters.h"

namespace gsort {
namespace {

constexpr uint64_t kReadBytes = uint64_t{1} << 20;  // read from an input at a time
constexpr uint64_t kSamplesPerRank = 1024;

// Rank 0's splitters from the first records: positions of evenly spaced ones.
Splitters splitters_from(const KeyLayout& layout, const std::vector<uint8_t>& first, int ranks) {
  const uint32_t rs = layout.record_size(), bytes = layout.width() + 8;
  const uint64_t records = first.size() / rs;
  const uint64_t count = std::min<uint64_t>(records, kSamplesPerRank * static_cast<uint64_t>(ranks));
  std::vector<uint8_t> samples(count * bytes);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t index = (2 * i + 1) * records / (2 * count);
    write_order_position(layout, first.data() + index * rs, index, samples.data() + i * bytes);
  }
  return splitters_of(samples, bytes, ranks);
}

// Rank 0: every input's records, the first ones held for the splitters.
void read_and_route(RankContext& rank, const std::vector<std::string>& inputs, Rank0Buckets& buckets, RankStats& stats,
                    uint64_t* total) {
  const KeyLayout& layout = rank.layout;
  const uint32_t rs = layout.record_size();
  const uint64_t sample_bytes = std::max<uint64_t>(rank0_sample_bytes(rank) / rs, 1) * rs;
  std::vector<uint8_t> first, chunk(std::max<uint64_t>(kReadBytes / rs, 1) * rs), scratch(layout.width() + 8);
  std::optional<Splitters> splitters;
  uint64_t index = 0;  // the next record's place in the inputs end to end
  const auto route = [&](const uint8_t* records, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i, ++index) {
      const uint8_t* r = records + i * rs;
      buckets.add(splitters->destination(layout, r, index, scratch.data()), r, rs);
    }
  };
  const auto start_routing = [&] {
    splitters.emplace(splitters_from(layout, first, rank.group.size));
    route(first.data(), first.size() / rs);
    first = std::vector<uint8_t>();
  };
  rank.fence.attempt([&] {
    for (const std::string& name : inputs) {
      InputFile in(name, rs);
      while (const uint64_t got = in.read(chunk.data(), chunk.size() / rs)) {
        stats.slice_records += got;
        if (splitters) {
          route(chunk.data(), got);
          continue;
        }
        first.insert(first.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got * rs));
        if (first.size() >= sample_bytes) start_routing();
      }
    }
    if (!splitters) start_routing();
    test_fault_point("exchange", 0);
  });
  buckets.end();
  *total = stats.slice_records;
}

}  // namespace

ReceivedRecords stream_records_to_ranks(RankContext& rank, const std::vector<std::string>& inputs, RankStats& stats,
                                        uint64_t* total) {
  const Stopwatch t;
  ReceivedRecords received;
  std::unique_ptr<ReceivedFiles> files;
  rank.fence.attempt([&] { files = std::make_unique<ReceivedFiles>(rank.config.temp_dir, 1, rank.layout.record_size()); });
  rank.fence.agree();
  *total = 0;
  if (rank.group.rank == 0) {
    Rank0Buckets buckets(rank, *files, rank0_flush_bytes(rank));
    read_and_route(rank, inputs, buckets, stats, total);
  } else {
    receive_from_rank0(rank, *files);
  }
  MPI_Bcast(total, 1, MPI_UINT64_T, 0, rank.group.comm);
  rank.fence.attempt([&] { files->finish(); });
  received.count = files->records();
  stats.received_records = received.count;
  stats.exchange_s = t.seconds();
  received.where = ReceivedInFiles{std::move(files)};
  return received;
}

}  // namespace gsort
