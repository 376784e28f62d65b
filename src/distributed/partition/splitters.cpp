#include "src/distributed/partition/splitters.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "src/core/stopwatch.h"

namespace gsort {
namespace {

// Samples per rank: 1,024 left partitions 3% apart with 2 ranks, and the
// slowest rank sets the pace; 16,384 bring that under 1% (reading them
// costs milliseconds). All ranks' samples together stay under kMaxSampleBytes.
constexpr uint64_t kSamplesPerRank = 16384;
constexpr uint64_t kMaxSampleBytes = 64ull << 20;

uint64_t samples_for(RecordRange slice, uint32_t position_bytes, int ranks) {
  const uint64_t most = std::max<uint64_t>(1, kMaxSampleBytes / (uint64_t{position_bytes} * ranks));
  return std::min({slice.size(), kSamplesPerRank, most});
}

std::vector<uint8_t> gather_all(const RankGroup& group, const std::vector<uint8_t>& mine) {
  const int my_bytes = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<size_t>(group.size)), displs(static_cast<size_t>(group.size));
  MPI_Allgather(&my_bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, group.comm);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<uint8_t> all(static_cast<size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), my_bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, group.comm);
  return all;
}

}  // namespace

void write_order_position(const KeyLayout& layout, const uint8_t* record, uint64_t global_index, uint8_t* out) {
  layout.normalise(record, out);
  out += layout.width();
  for (int b = 7; b >= 0; --b) *out++ = static_cast<uint8_t>(global_index >> (8 * b));
}

Splitters::Splitters(uint32_t position_bytes, std::vector<uint8_t> positions)
    : bytes_(position_bytes), positions_(std::move(positions)), count_(static_cast<int>(positions_.size() / bytes_)) {
  // A position is the key (bytes_ - 8 bytes), then the record number.
  const uint32_t key_bytes = std::min<uint32_t>(bytes_ - 8, 8);
  for (int i = 0; i < count_; ++i) {
    uint64_t v = 0;
    for (uint32_t b = 0; b < 8; ++b) v = (v << 8) | (b < key_bytes ? positions_[static_cast<size_t>(i) * bytes_ + b] : 0);
    prefixes_.push_back(v);
  }
}

int Splitters::destination(const uint8_t* position) const { return search(position, 0, count_); }

int Splitters::destination(const KeyLayout& layout, const uint8_t* record, uint64_t global_index,
                           uint8_t* scratch) const {
  // Splitters are in position order, so their prefixes are too: those below
  // the record's are before it, those above after it; only equal prefixes
  // need the whole position (the rest of the key, then the record number).
  const uint64_t p = layout.prefix(record);
  const auto below = std::lower_bound(prefixes_.begin(), prefixes_.end(), p);
  const auto above = std::upper_bound(below, prefixes_.end(), p);
  const int lo = static_cast<int>(below - prefixes_.begin()), hi = static_cast<int>(above - prefixes_.begin());
  if (lo == hi) return lo;
  write_order_position(layout, record, global_index, scratch);
  return search(scratch, lo, hi);
}

int Splitters::search(const uint8_t* position, int lo, int hi) const {
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (std::memcmp(positions_.data() + static_cast<size_t>(mid) * bytes_, position, bytes_) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::vector<uint8_t> sample_slice(const ConcatenatedInputs& inputs, RecordRange slice, const KeyLayout& layout,
                                  int ranks) {
  const uint32_t bytes = layout.width() + 8;
  const uint64_t count = samples_for(slice, bytes, ranks);
  std::vector<uint8_t> out(count * bytes);
  std::vector<uint8_t> record(layout.record_size());
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t index = slice.begin + (2 * i + 1) * slice.size() / (2 * count);
    inputs.read(index, 1, record.data());
    write_order_position(layout, record.data(), index, out.data() + i * bytes);
  }
  return out;
}

Splitters choose_splitters(const RankGroup& group, const std::vector<uint8_t>& samples, uint32_t bytes) {
  return splitters_of(gather_all(group, samples), bytes, group.size);
}

Splitters splitters_of(const std::vector<uint8_t>& all, uint32_t bytes, int ranks) {
  const size_t count = all.size() / bytes;
  std::vector<size_t> order(count);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::memcmp(all.data() + a * bytes, all.data() + b * bytes, bytes) < 0;
  });
  std::vector<uint8_t> splitters;
  // No samples (no records at all): no splitters, everything is rank 0's.
  for (int i = 1; count > 0 && i < ranks; ++i) {
    const uint8_t* s = all.data() + order[i * count / static_cast<size_t>(ranks)] * bytes;
    splitters.insert(splitters.end(), s, s + bytes);
  }
  return Splitters(bytes, std::move(splitters));
}

Splitters agree_on_splitters(RankContext& rank, const ConcatenatedInputs& inputs, RecordRange slice,
                             RankStats& stats) {
  const Stopwatch t;
  std::vector<uint8_t> samples;
  rank.fence.attempt([&] { samples = sample_slice(inputs, slice, rank.layout, rank.group.size); });
  rank.fence.agree();
  Splitters splitters = choose_splitters(rank.group, samples, rank.layout.width() + 8);
  stats.splitters_s = t.seconds();
  return splitters;
}

}  // namespace gsort
