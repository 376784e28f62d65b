#include "src/distributed/lines/routed_slice.h"

#include <algorithm>
#include <cstring>

#include "src/core/host_buffer.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/mpi_exchange.h"
#include "src/distributed/lines/line_slice.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// A window's bytes at most (a line longer than that is taken whole): each
// rank's buckets and every peer's receive buffer take this.
constexpr uint64_t kWindowBytes = uint64_t{32} << 20;
constexpr uint64_t kReadPieceBytes = uint64_t{4} << 20;  // read by one thread at a time

// A round's incoming pieces, in buffers of this rank's, appended to their
// files once landed.
class PieceSink final : public ReceiveSink {
 public:
  PieceSink(RankContext& rank, ReceivedFiles& received)
      : rank_(rank), received_(received), buffers_(static_cast<size_t>(rank.group.size)) {}
  uint8_t* place(int source, uint64_t count) override {
    HostBuffer& b = buffers_[static_cast<size_t>(source)];
    if (b.size() < count) b = HostBuffer::allocate_pageable(count);
    return b.data();
  }
  void landed(int source, uint64_t count) override {
    rank_.fence.attempt([&] { received_.append(source, buffers_[static_cast<size_t>(source)].data(), count); });
  }

 private:
  RankContext& rank_;
  ReceivedFiles& received_;
  std::vector<HostBuffer> buffers_;
};

// The slice's next window from `at`: about `bytes`, ending at a line's end
// and within one input, read on the pool's threads into `buf`, a
// terminator added to the input's unterminated last line. Returns where
// the next window starts.
uint64_t read_window(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at, uint64_t slice_end, uint64_t bytes,
                     ThreadPool& pool, std::vector<uint8_t>& buf) {
  const uint64_t in_end = input_end(inputs, at);
  const uint64_t limit = std::min(slice_end, in_end);
  uint64_t stop = std::min(limit, at + bytes);
  if (stop < limit) stop = std::min(limit, line_start_at_or_after(inputs, eol, stop));
  const uint64_t n = stop - at;
  buf.resize(n + 1);
  const size_t pieces = static_cast<size_t>((n + kReadPieceBytes - 1) / kReadPieceBytes);
  pool.parallel_for(pieces, [&](size_t p) {
    const uint64_t from = p * kReadPieceBytes;
    inputs.read(at + from, std::min(kReadPieceBytes, n - from), buf.data() + from);
  });
  buf.resize(n);
  if (stop == in_end && n > 0 && buf[n - 1] != eol) buf.push_back(eol);
  return stop;
}

// Consecutive lines of a window bound for one rank.
struct RoutedRun {
  uint64_t begin = 0;
  uint64_t bytes = 0;
  int rank = 0;
};

// One window's lines, each to its rank's bucket, in input order.
class WindowRouter {
 public:
  WindowRouter(const LineRouter& router, uint8_t eol, int ranks, ThreadPool& pool)
      : router_(router), eol_(eol), ranks_(static_cast<size_t>(ranks)), pool_(pool), buckets_(ranks_), sizes_(ranks_) {}

  // Routes window `w` (whole lines, the first at `place` in the inputs).
  void route(const std::vector<uint8_t>& w, uint64_t place) {
    const size_t tasks = pool_.balanced_task_count();
    runs_.assign(tasks, {});
    bytes_.assign(tasks, std::vector<uint64_t>(ranks_, 0));
    std::vector<uint64_t> starts(tasks + 1, w.size());
    for (size_t t = 0; t < tasks; ++t) {
      starts[t] = line_start_at_or_after(w.data(), w.size(), eol_, split_point(w.size(), tasks, t));
    }
    pool_.parallel_for(tasks, [&](size_t t) { find_ranks(w, starts[t], std::max(starts[t], starts[t + 1]), place, t); });
    // Where each task's lines go in each bucket.
    std::vector<std::vector<uint64_t>> at(tasks, std::vector<uint64_t>(ranks_, 0));
    std::fill(sizes_.begin(), sizes_.end(), 0);
    for (size_t t = 0; t < tasks; ++t) {
      for (size_t d = 0; d < ranks_; ++d) {
        at[t][d] = sizes_[d];
        sizes_[d] += bytes_[t][d];
      }
    }
    for (size_t d = 0; d < ranks_; ++d) {
      // A quarter more than this window needs, for the windows after it.
      if (buckets_[d].size() < sizes_[d]) buckets_[d] = HostBuffer::allocate_pageable(sizes_[d] + sizes_[d] / 4);
    }
    pool_.parallel_for(tasks, [&](size_t t) {
      for (const RoutedRun& r : runs_[t]) {
        const size_t d = static_cast<size_t>(r.rank);
        std::memcpy(buckets_[d].data() + at[t][d], w.data() + r.begin, r.bytes);
        at[t][d] += r.bytes;
      }
    });
  }
  const uint8_t* bucket(int rank) const { return buckets_[static_cast<size_t>(rank)].data(); }
  uint64_t bucket_bytes(int rank) const { return sizes_[static_cast<size_t>(rank)]; }

 private:
  void find_ranks(const std::vector<uint8_t>& w, uint64_t begin, uint64_t end, uint64_t place, size_t t) {
    std::vector<RoutedRun>& runs = runs_[t];
    for (uint64_t at = begin; at < end;) {
      const auto* line = w.data() + at;
      const auto* stop = static_cast<const uint8_t*>(std::memchr(line, eol_, end - at));
      const uint64_t length = static_cast<uint64_t>(stop - line);  // every line of a window ends with one
      const int d = router_.rank_of(line, length, place + at);
      if (!runs.empty() && runs.back().rank == d) {
        runs.back().bytes += length + 1;
      } else {
        runs.push_back(RoutedRun{at, length + 1, d});
      }
      bytes_[t][static_cast<size_t>(d)] += length + 1;
      at += length + 1;
    }
  }

  const LineRouter& router_;
  const uint8_t eol_;
  const size_t ranks_;
  ThreadPool& pool_;
  std::vector<HostBuffer> buckets_;
  std::vector<uint64_t> sizes_;
  std::vector<std::vector<RoutedRun>> runs_;   // per task
  std::vector<std::vector<uint64_t>> bytes_;   // per task, per rank
};

}  // namespace

std::vector<LineSample> slice_samples(const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol,
                                      int rank, uint64_t total, uint64_t wanted) {
  std::vector<LineSample> out;
  const uint64_t size = slice.end - slice.begin;
  for (const uint64_t place : sample_places(size, total, wanted)) {
    const uint64_t at = line_start_at_or_after(inputs, eol, slice.begin + place);
    if (at >= slice.end) break;
    if (!out.empty() && out.back().at == at) continue;
    out.push_back(LineSample{rank, at, 0, line_at(inputs, eol, at)});
  }
  for (LineSample& s : out) s.weight = static_cast<double>(size) / static_cast<double>(out.size());
  return out;
}

ExchangeTally route_slice(RankContext& rank, const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol,
                          const LineRouter& router, ReceivedFiles& received, uint64_t* routed) {
  const int ranks = rank.group.size;
  const int me = rank.group.rank;
  // A share of the least -S of all ranks, for every peer's buffer.
  const uint64_t window_bytes =
      std::clamp<uint64_t>(rank.least_memory_bytes / 4 / static_cast<uint64_t>(ranks), 1 << 20, kWindowBytes);
  WindowRouter windows(router, eol, ranks, rank.pool);
  MpiExchange exchange(rank.group, 1);
  PieceSink sink(rank, received);
  std::vector<uint8_t> window;
  *routed = 0;
  uint64_t at = slice.begin;
  for (;;) {
    // Every rank takes part in rounds until none has lines left (or can go on).
    int more = at < slice.end && !rank.fence.failed() ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &more, 1, MPI_INT, MPI_MAX, rank.group.comm);
    if (!more) break;
    std::vector<const uint8_t*> sends(static_cast<size_t>(ranks), nullptr);
    std::vector<uint64_t> counts(static_cast<size_t>(ranks), 0);
    if (at < slice.end) {
      rank.fence.attempt([&] {
        const uint64_t place = at;
        at = read_window(inputs, eol, at, slice.end, window_bytes, rank.pool, window);
        windows.route(window, place);
        *routed += window.size();
        received.append(me, windows.bucket(me), windows.bucket_bytes(me));
        test_fault_point("exchange", me);
        for (int d = 0; d < ranks; ++d) {
          if (d == me) continue;
          sends[static_cast<size_t>(d)] = windows.bucket(d);
          counts[static_cast<size_t>(d)] = windows.bucket_bytes(d);
        }
      });
      if (rank.fence.failed()) std::fill(counts.begin(), counts.end(), 0);
    }
    exchange.round(sends, counts, sink);
  }
  return exchange.tally();
}

}  // namespace gsort
