#include "src/distributed/lines/streamed_lines.h"

#include <algorithm>
#include <memory>

#include "io/input/input_set.h"
#include "io/input/line_source.h"
#include "src/core/test_hooks.h"
#include "src/distributed/lines/line_router.h"

namespace gsort {
namespace {

constexpr uint64_t kEndOfStream = UINT64_MAX;
constexpr int kHeaderTag = 11, kDataTag = 12;

// Rank 0's buckets, sent when they are large enough.
class Buckets {
 public:
  Buckets(RankContext& rank, ReceivedFiles& received, uint64_t flush_bytes)
      : rank_(rank), received_(received), buckets_(static_cast<size_t>(rank.group.size)), flush_bytes_(flush_bytes) {}
  void add(int to, const uint8_t* line, uint64_t length, uint8_t eol) {
    std::string& b = buckets_[static_cast<size_t>(to)];
    b.append(reinterpret_cast<const char*>(line), length);
    b.push_back(static_cast<char>(eol));
    held_ += length + 1;
    if (held_ >= flush_bytes_) flush();
  }
  // Sends every bucket (rank 0's own to its file).
  void flush() {
    for (int r = 0; r < rank_.group.size; ++r) {
      std::string& b = buckets_[static_cast<size_t>(r)];
      if (b.empty()) continue;
      if (r == 0) {
        rank_.fence.attempt([&] { received_.append(0, reinterpret_cast<const uint8_t*>(b.data()), b.size()); });
      } else {
        const uint64_t n = b.size();
        MPI_Send(&n, 1, MPI_UINT64_T, r, kHeaderTag, rank_.group.comm);
        for (uint64_t at = 0; at < n; at += uint64_t{1} << 30) {
          const int part = static_cast<int>(std::min<uint64_t>(uint64_t{1} << 30, n - at));
          MPI_Send(b.data() + at, part, MPI_BYTE, r, kDataTag, rank_.group.comm);
        }
      }
      b.clear();
    }
    held_ = 0;
  }
  void end() {
    flush();
    for (int r = 1; r < rank_.group.size; ++r) MPI_Send(&kEndOfStream, 1, MPI_UINT64_T, r, kHeaderTag, rank_.group.comm);
  }

 private:
  RankContext& rank_;
  ReceivedFiles& received_;
  std::vector<std::string> buckets_;
  const uint64_t flush_bytes_;
  uint64_t held_ = 0;
};

// Rank 0: every input's lines, the first ones held for the splitters.
void read_and_route(RankContext& rank, const LineComparator& compare, const std::vector<std::string>& inputs,
                    Buckets& buckets, uint64_t sample_bytes, RankStats& stats) {
  const uint8_t eol = compare.spec().eol;
  const uint64_t max_line = std::max<uint64_t>(rank.config.memory_bytes / 4, uint64_t{1} << 20);
  LineRouter router(compare, compare.spec().unique);
  std::vector<LineSample> first;
  uint64_t first_bytes = 0, place = 0;
  bool routing = false;
  const auto start_routing = [&] {
    router.choose(first, first_bytes, rank.group.size);
    for (const LineSample& l : first) {
      const auto* p = reinterpret_cast<const uint8_t*>(l.line.data());
      buckets.add(router.rank_of(p, l.line.size(), l.at), p, l.line.size(), eol);
    }
    first.clear();
    routing = true;
  };
  rank.fence.attempt([&] {
    for (const std::string& name : inputs) {
      LineSource lines(std::make_unique<InputFile>(name, 1), eol, 1 << 20, max_line);
      while (lines.advance()) {
        stats.slice_records += lines.length() + 1;
        if (!routing) {
          const auto weight = static_cast<double>(lines.length() + 1);
          first.push_back(LineSample{0, place++, weight, std::string(reinterpret_cast<const char*>(lines.line()), lines.length())});
          first_bytes += lines.length() + 1;
          if (first_bytes >= sample_bytes) start_routing();
          continue;
        }
        buckets.add(router.rank_of(lines.line(), lines.length(), place++), lines.line(), lines.length(), eol);
      }
    }
    if (!routing) start_routing();
    test_fault_point("exchange", 0);
  });
  buckets.end();
}

// Every other rank: what rank 0 sends, to its file, until the end.
void receive_routed(RankContext& rank, ReceivedFiles& received) {
  std::vector<uint8_t> buf;
  for (;;) {
    uint64_t n = 0;
    MPI_Recv(&n, 1, MPI_UINT64_T, 0, kHeaderTag, rank.group.comm, MPI_STATUS_IGNORE);
    if (n == kEndOfStream) return;
    buf.resize(n);
    for (uint64_t at = 0; at < n; at += uint64_t{1} << 30) {
      const int part = static_cast<int>(std::min<uint64_t>(uint64_t{1} << 30, n - at));
      MPI_Recv(buf.data() + at, part, MPI_BYTE, 0, kDataTag, rank.group.comm, MPI_STATUS_IGNORE);
    }
    rank.fence.attempt([&] { received.append(0, buf.data(), n); });
  }
}

}  // namespace

void stream_lines_to_ranks(RankContext& rank, const LineComparator& compare, const std::vector<std::string>& inputs,
                           ReceivedFiles& received, RankStats& stats) {
  // The first lines read choose the splitters; the buckets go out in
  // pieces of a share of the least -S of all ranks.
  const uint64_t share = rank.least_memory_bytes / 8;
  const uint64_t sample_bytes = std::clamp<uint64_t>(share, uint64_t{1} << 20, uint64_t{64} << 20);
  const uint64_t flush_bytes = std::clamp<uint64_t>(share, uint64_t{1} << 20, uint64_t{32} << 20);
  if (rank.group.rank == 0) {
    Buckets buckets(rank, received, flush_bytes);
    read_and_route(rank, compare, inputs, buckets, sample_bytes, stats);
  } else {
    receive_routed(rank, received);
  }
}

}  // namespace gsort
