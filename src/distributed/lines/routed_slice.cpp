#include "src/distributed/lines/routed_slice.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>

#include "io/input/mapped_input.h"
#include "src/core/host_buffer.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/mpi_exchange.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/window_router.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// A window's bytes at most (a line longer than that is taken whole): each
// rank's buckets and every peer's receive buffer take this.
constexpr uint64_t kWindowBytes = uint64_t{32} << 20;
constexpr uint64_t kReadPieceBytes = uint64_t{4} << 20;  // read by one thread at a time

// A round's incoming pieces, straight into the received pool where it
// takes them (ReceivedFiles::take), else into buffers of this rank's,
// appended to their files once landed.
class PieceSink final : public ReceiveSink {
 public:
  PieceSink(RankContext& rank, ReceivedFiles& received)
      : rank_(rank),
        received_(received),
        buffers_(static_cast<size_t>(rank.group.size)),
        pooled_(static_cast<size_t>(rank.group.size)) {}
  uint8_t* place(int source, uint64_t count) override {
    const size_t s = static_cast<size_t>(source);
    pooled_[s] = received_.take(count);
    if (pooled_[s] != nullptr) return pooled_[s];
    HostBuffer& b = buffers_[s];
    if (b.size() < count) b = HostBuffer::allocate_pageable(count);
    return b.data();
  }
  void landed(int source, uint64_t count) override {
    const size_t s = static_cast<size_t>(source);
    if (pooled_[s] != nullptr) return;
    rank_.fence.attempt([&] { received_.append(source, buffers_[s].data(), count); });
  }

 private:
  RankContext& rank_;
  ReceivedFiles& received_;
  std::vector<HostBuffer> buffers_;
  std::vector<uint8_t*> pooled_;  // this round's places in the pool, by source (null: a buffer)
};

// A window's bytes: a mapping of the input (the page cache's own pages,
// nothing copied) or, where it cannot be mapped or a terminator must be
// added, a copy read into `copy`.
struct WindowText {
  std::unique_ptr<MappedInput> mapped;
  std::vector<uint8_t> copy;
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

// The slice's next window from `at`: about `bytes`, ending at a line's end
// and within one input, mapped, or read on the pool's threads, with a
// terminator added to the input's unterminated last line. Returns where
// the next window starts.
uint64_t read_window(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at, uint64_t slice_end, uint64_t bytes,
                     ThreadPool& pool, WindowText& w) {
  const uint64_t in_end = input_end(inputs, at);
  const uint64_t limit = std::min(slice_end, in_end);
  uint64_t stop = std::min(limit, at + bytes);
  if (stop < limit) stop = std::min(limit, line_start_at_or_after(inputs, eol, stop));
  const uint64_t n = stop - at;
  w.mapped.reset();
  uint8_t last = eol;
  if (stop == in_end && n > 0) inputs.read(stop - 1, 1, &last);
  if (last == eol && n > 0 && (w.mapped = inputs.map(at, n)) != nullptr) {
    w.mapped->populate(pool);
    w.data = w.mapped->bytes();
    w.size = n;
    return stop;
  }
  std::vector<uint8_t>& buf = w.copy;
  buf.resize(n + 1);
  const size_t pieces = static_cast<size_t>((n + kReadPieceBytes - 1) / kReadPieceBytes);
  pool.parallel_for(pieces, [&](size_t p) {
    const uint64_t from = p * kReadPieceBytes;
    inputs.read(at + from, std::min(kReadPieceBytes, n - from), buf.data() + from);
  });
  buf.resize(n);
  if (last != eol) buf.push_back(eol);
  w.data = buf.data();
  w.size = buf.size();
  return stop;
}

// A window read and routed: ahead of the round that sends it, while the
// round before is in flight.
struct RoutedWindow {
  RoutedWindow(const LineRouter& by, uint8_t eol, int ranks, int me, ThreadPool& pool)
      : router(by, eol, ranks, me, pool) {}
  WindowText text;
  WindowRouter router;
  bool ready = false;
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
  RoutedWindow one(router, eol, ranks, me, rank.pool), other(router, eol, ranks, me, rank.pool);
  MpiExchange exchange(rank.group, 1);
  PieceSink sink(rank, received);
  const WindowRouter::OwnPlace own = [&received](uint64_t bytes) { return received.take(bytes); };
  *routed = 0;
  uint64_t at = slice.begin;
  // Reads and routes the slice's next window into w, this rank's own
  // lines kept (none where the slice is done).
  const auto prepare = [&](RoutedWindow& w) {
    w.ready = false;
    if (at >= slice.end) return;
    const uint64_t place = at;
    at = read_window(inputs, eol, at, slice.end, window_bytes, rank.pool, w.text);
    w.router.route(w.text.data, w.text.size, place, own);
    *routed += w.text.size;
    if (!w.router.own_placed()) received.append(me, w.router.bucket(me), w.router.bucket_bytes(me));
    test_fault_point("exchange", me);
    w.ready = true;
  };
  RoutedWindow* cur = &one;
  RoutedWindow* next = &other;
  rank.fence.attempt([&] { prepare(*cur); });
  for (;;) {
    // Every rank takes part in rounds until none has lines left (or can go on).
    const bool sending = cur->ready && !rank.fence.failed();
    int more = sending ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &more, 1, MPI_INT, MPI_MAX, rank.group.comm);
    if (!more) break;
    // The next window is read and routed on the pool while this round runs
    // here (MPI stays on this thread).
    std::exception_ptr ahead_error;
    std::thread ahead;
    next->ready = false;
    if (sending) {
      ahead = std::thread([&] {
        try {
          prepare(*next);
        } catch (...) {
          ahead_error = std::current_exception();
        }
      });
    }
    std::vector<const uint8_t*> sends(static_cast<size_t>(ranks), nullptr);
    std::vector<uint64_t> counts(static_cast<size_t>(ranks), 0);
    for (int d = 0; sending && d < ranks; ++d) {
      if (d == me) continue;
      sends[static_cast<size_t>(d)] = cur->router.bucket(d);
      counts[static_cast<size_t>(d)] = cur->router.bucket_bytes(d);
    }
    exchange.round(sends, counts, sink);
    if (ahead.joinable()) ahead.join();
    if (ahead_error) rank.fence.attempt([&] { std::rethrow_exception(ahead_error); });
    std::swap(cur, next);
  }
  return exchange.tally();
}

}  // namespace gsort
