#include "src/distributed/lines/routed_slice.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/mpi_exchange.h"
#include "src/distributed/lines/line_marks.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/slice_window.h"
#include "src/distributed/lines/window_router.h"
#include "src/merge/range_cuts.h"

namespace gsort {
namespace {

// A window's bytes at most (a line longer than that is taken whole): each
// rank's buckets and every peer's receive buffer take this.
constexpr uint64_t kWindowBytes = uint64_t{32} << 20;

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

// A round's incoming marks (line_marks.h), a message per source, read
// after the round.
class MarksSink final : public ReceiveSink {
 public:
  explicit MarksSink(int ranks) : messages_(static_cast<size_t>(ranks)) {}
  uint8_t* place(int source, uint64_t count) override {
    std::vector<uint8_t>& m = messages_[static_cast<size_t>(source)];
    m.resize(count);
    return m.data();
  }
  void landed(int, uint64_t) override {}
  // The message from `source` this round, emptied for the next (empty: none came).
  std::vector<uint8_t> take(int source) {
    std::vector<uint8_t> message;
    message.swap(messages_[static_cast<size_t>(source)]);
    return message;
  }

 private:
  std::vector<std::vector<uint8_t>> messages_;
};

// A round's incoming messages by source: marks from the ranks that send
// them (marked), lines from the others.
class RoundSink final : public ReceiveSink {
 public:
  RoundSink(PieceSink& lines, MarksSink& marks, const std::vector<bool>& marked)
      : lines_(lines), marks_(marks), marked_(marked) {}
  uint8_t* place(int source, uint64_t count) override { return of(source).place(source, count); }
  void landed(int source, uint64_t count) override { of(source).landed(source, count); }

 private:
  ReceiveSink& of(int source) {
    return marked_[static_cast<size_t>(source)] ? static_cast<ReceiveSink&>(marks_) : lines_;
  }
  PieceSink& lines_;
  MarksSink& marks_;
  const std::vector<bool>& marked_;
};

// After a round with marks: each rank's window that came as marks, read
// here as it read it, and the lines it marked for this rank copied into
// `received`, in source order (each source's lines in its order).
void take_marked_from_peers(RankContext& rank, const ConcatenatedInputs& inputs, uint8_t eol, MarksSink& sink,
                            ReceivedFiles& received) {
  const int me = rank.group.rank;
  WindowText text;
  HostBuffer spill;
  const auto into_pool = [&received](uint64_t bytes) { return received.take(bytes); };
  for (int source = 0; source < rank.group.size; ++source) {
    const std::vector<uint8_t> message = sink.take(source);
    if (source == me || message.empty()) continue;
    const WindowMarks m = decode_marks(message);
    read_window(inputs, eol, m.place, m.stop, m.stop - m.place, rank.pool, text);
    if (text.size != m.size) throw Error("internal error: rank " + std::to_string(source) + "'s window differs here");
    bool placed = false;
    const uint64_t bytes = take_marked_lines(text.data, m, eol, me, rank.pool, into_pool, spill, &placed);
    if (!placed) received.append(source, spill.data(), bytes);
  }
}

// A window read and routed: ahead of the round that sends it, while the
// round before is in flight. Where ranks are marked (line_marks.h), its
// message to them is the window's marks.
struct RoutedWindow {
  RoutedWindow(const LineRouter& by, uint8_t eol, int ranks, int me, ThreadPool& pool, const std::vector<bool>& marked)
      : router(by, eol, ranks, me, pool, marked) {}
  WindowText text;
  WindowRouter router;
  std::vector<uint8_t> message;
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
                          const LineRouter& router, const std::vector<bool>& marked, ReceivedFiles& received,
                          uint64_t* routed) {
  const int ranks = rank.group.size;
  const int me = rank.group.rank;
  // A share of the least -S of all ranks, for every peer's buffer.
  const uint64_t window_bytes =
      std::clamp<uint64_t>(rank.least_memory_bytes / 4 / static_cast<uint64_t>(ranks), 1 << 20, kWindowBytes);
  const bool by_marks = std::find(marked.begin(), marked.end(), true) != marked.end();
  RoutedWindow one(router, eol, ranks, me, rank.pool, marked), other(router, eol, ranks, me, rank.pool, marked);
  MpiExchange exchange(rank.group, 1);
  PieceSink pieces(rank, received);
  MarksSink marks(ranks);
  RoundSink sink(pieces, marks, marked);
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
    if (by_marks) w.message = encode_marks(place, at, w.text.size, w.router.task_begin(), w.router.marks());
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
      const bool marks_to_d = marked[static_cast<size_t>(d)];
      sends[static_cast<size_t>(d)] = marks_to_d ? cur->message.data() : cur->router.bucket(d);
      counts[static_cast<size_t>(d)] = marks_to_d ? cur->message.size() : cur->router.bucket_bytes(d);
    }
    exchange.round(sends, counts, sink);
    if (ahead.joinable()) ahead.join();
    if (ahead_error) rank.fence.attempt([&] { std::rethrow_exception(ahead_error); });
    if (by_marks) rank.fence.attempt([&] { take_marked_from_peers(rank, inputs, eol, marks, received); });
    std::swap(cur, next);
  }
  return exchange.tally();
}

}  // namespace gsort
