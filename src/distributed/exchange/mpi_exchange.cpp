#include "src/distributed/exchange/mpi_exchange.h"

#include <algorithm>

#include "src/core/stopwatch.h"

namespace gsort {
namespace {

// MPI counts are ints: a bucket travels as messages of at most this many
// bytes, each with its own tag so that they match in order.
constexpr uint64_t kMessageBytes = 1ull << 30;

}  // namespace

MpiExchange::MpiExchange(const RankGroup& group, uint32_t record_size)
    : group_(group), record_size_(record_size), incoming_(static_cast<size_t>(group.size)) {}

void MpiExchange::round(const std::vector<const uint8_t*>& sends, const std::vector<uint64_t>& counts,
                        ReceiveSink& sink) {
  const int ranks = group_.size;
  Stopwatch waiting;
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming_.data(), 1, MPI_UINT64_T, group_.comm);
  requests_.clear();
  const auto post = [&](bool send, uint8_t* data, uint64_t bytes, int peer) {
    int tag = 0;
    for (uint64_t at = 0; at < bytes; at += kMessageBytes, ++tag) {
      const int n = static_cast<int>(std::min(kMessageBytes, bytes - at));
      requests_.emplace_back();
      if (send) {
        MPI_Isend(data + at, n, MPI_BYTE, peer, tag, group_.comm, &requests_.back());
      } else {
        MPI_Irecv(data + at, n, MPI_BYTE, peer, tag, group_.comm, &requests_.back());
      }
    }
  };
  for (int r = 0; r < ranks; ++r) {
    if (r == group_.rank) continue;
    const size_t i = static_cast<size_t>(r);
    if (incoming_[i]) post(false, sink.place(r, incoming_[i]), incoming_[i] * record_size_, r);
  }
  for (int r = 0; r < ranks; ++r) {
    if (r == group_.rank) continue;
    const size_t i = static_cast<size_t>(r);
    // MPI's send buffer is const only from MPI 3 on; the cast is for older headers.
    if (counts[i]) post(true, const_cast<uint8_t*>(sends[i]), counts[i] * record_size_, r);
    tally_.bytes_sent += counts[i] * record_size_;
    tally_.bytes_received += incoming_[i] * record_size_;
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  tally_.wait_s += waiting.seconds();
  ++tally_.rounds;
  for (int r = 0; r < ranks; ++r) {
    if (r != group_.rank && incoming_[static_cast<size_t>(r)]) sink.landed(r, incoming_[static_cast<size_t>(r)]);
  }
}

}  // namespace gsort
