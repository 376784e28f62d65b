#include "src/distributed/lines/line_exchange.h"

#include <algorithm>

#include "src/core/host_buffer.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/mpi_exchange.h"

namespace gsort {
namespace {

// What one round moves to or from each rank at most: the receive buffers
// take this for every other rank.
constexpr uint64_t kRoundBytes = uint64_t{32} << 20;

// A round's incoming pieces, in buffers of this rank's, appended to their
// files once landed.
class PieceSink final : public ReceiveSink {
 public:
  PieceSink(RankContext& rank, ReceivedFiles& received, uint64_t round_bytes)
      : rank_(rank), received_(received), buffers_(static_cast<size_t>(rank.group.size)), round_bytes_(round_bytes) {}
  uint8_t* place(int source, uint64_t count) override {
    HostBuffer& b = buffers_[static_cast<size_t>(source)];
    if (b.size() < count) b = HostBuffer::allocate_pageable(std::max(count, round_bytes_));
    return b.data();
  }
  void landed(int source, uint64_t count) override {
    rank_.fence.attempt([&] { received_.append(source, buffers_[static_cast<size_t>(source)].data(), count); });
  }

 private:
  RankContext& rank_;
  ReceivedFiles& received_;
  std::vector<HostBuffer> buffers_;
  const uint64_t round_bytes_;
};

}  // namespace

ExchangeTally exchange_line_pieces(RankContext& rank, const SortedLinePart& part, const std::vector<uint64_t>& cuts,
                                   ReceivedFiles& received) {
  const int ranks = rank.group.size;
  const int me = rank.group.rank;
  // A share of the least -S of all ranks, for every peer's buffer.
  const uint64_t round_bytes =
      std::clamp<uint64_t>(rank.least_memory_bytes / 4 / static_cast<uint64_t>(ranks), 1 << 20, kRoundBytes);
  std::vector<uint64_t> sent(static_cast<size_t>(ranks), 0);
  uint64_t most = 0;
  for (int d = 0; d < ranks; ++d) {
    const size_t i = static_cast<size_t>(d);
    if (d != me) most = std::max(most, cuts[i + 1] - cuts[i]);
  }
  uint64_t rounds = (most + round_bytes - 1) / round_bytes, all_rounds = 0;
  MPI_Allreduce(&rounds, &all_rounds, 1, MPI_UINT64_T, MPI_MAX, rank.group.comm);
  // This rank's own piece goes straight to its file.
  const size_t own = static_cast<size_t>(me);
  rank.fence.attempt([&] {
    received.append(me, part.bytes() + cuts[own], cuts[own + 1] - cuts[own]);
    test_fault_point("exchange", me);
  });
  MpiExchange exchange(rank.group, 1);
  PieceSink sink(rank, received, round_bytes);
  for (uint64_t round = 0; round < all_rounds; ++round) {
    std::vector<const uint8_t*> sends(static_cast<size_t>(ranks), nullptr);
    std::vector<uint64_t> counts(static_cast<size_t>(ranks), 0);
    for (int d = 0; d < ranks; ++d) {
      const size_t i = static_cast<size_t>(d);
      if (d == me) continue;
      const uint64_t at = cuts[i] + sent[i];
      counts[i] = std::min(round_bytes, cuts[i + 1] - at);
      sends[i] = part.bytes() + at;
      sent[i] += counts[i];
    }
    exchange.round(sends, counts, sink);
  }
  return exchange.tally();
}

}  // namespace gsort
