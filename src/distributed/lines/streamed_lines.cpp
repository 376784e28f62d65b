#include "src/distributed/lines/streamed_lines.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "io/input/input_set.h"
#include "io/input/line_source.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kEndOfStream = UINT64_MAX;
constexpr int kHeaderTag = 11, kDataTag = 12;

// A line of the first ones read, and its place in the input.
struct PlacedLine {
  std::string text;
  uint64_t place = 0;
};

// Where each line goes: after the splitters it does not sort before (by
// the comparison, then by place; under -u by the key alone).
class LineRouter {
 public:
  LineRouter(const LineComparator& compare, bool whole_keys) : compare_(compare), whole_keys_(whole_keys) {}

  // N-1 splitters at even shares of the first lines (fewer where keys repeat under -u).
  void choose(const std::vector<PlacedLine>& first, int ranks) {
    std::vector<size_t> order(first.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cmp(first[a].text, first[b].text) < 0; });
    for (int d = 1; d < ranks && !order.empty(); ++d) {
      const PlacedLine& s = first[order[order.size() * static_cast<size_t>(d) / static_cast<size_t>(ranks)]];
      if (whole_keys_ && !splitters_.empty() && cmp(splitters_.back().text, s.text) == 0) continue;
      splitters_.push_back(s);
    }
  }
  // Every line rank 0 reads comes here: compared where it lies, not copied.
  int rank_of(const uint8_t* line, uint64_t length, uint64_t place) const {
    // The splitters that the line does not sort before.
    const auto after = std::partition_point(splitters_.begin(), splitters_.end(), [&](const PlacedLine& s) {
      const int c = compare_.compare(reinterpret_cast<const uint8_t*>(s.text.data()), s.text.size(), line, length);
      return c < 0 || (c == 0 && (whole_keys_ || s.place <= place));
    });
    return static_cast<int>(after - splitters_.begin());
  }

 private:
  int cmp(const std::string& a, const std::string& b) const {
    return compare_.compare(reinterpret_cast<const uint8_t*>(a.data()), a.size(),
                            reinterpret_cast<const uint8_t*>(b.data()), b.size());
  }
  const LineComparator& compare_;
  const bool whole_keys_;
  std::vector<PlacedLine> splitters_;
};

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
  std::vector<PlacedLine> first;
  uint64_t first_bytes = 0, place = 0;
  bool routing = false;
  const auto start_routing = [&] {
    router.choose(first, rank.group.size);
    for (const PlacedLine& l : first) {
      const auto* p = reinterpret_cast<const uint8_t*>(l.text.data());
      buckets.add(router.rank_of(p, l.text.size(), l.place), p, l.text.size(), eol);
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
          first.push_back(PlacedLine{std::string(reinterpret_cast<const char*>(lines.line()), lines.length()), place++});
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
