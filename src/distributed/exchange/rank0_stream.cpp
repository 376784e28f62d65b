#include "src/distributed/exchange/rank0_stream.h"

#include <algorithm>

namespace gsort {
namespace {

constexpr uint64_t kEndOfStream = UINT64_MAX;
constexpr int kHeaderTag = 11, kDataTag = 12;
constexpr uint64_t kMessageBytes = uint64_t{1} << 30;

}  // namespace

Rank0Buckets::Rank0Buckets(RankContext& rank, ReceivedFiles& received, uint64_t flush_bytes)
    : rank_(rank), received_(received), buckets_(static_cast<size_t>(rank.group.size)), flush_bytes_(flush_bytes) {}

void Rank0Buckets::add(int to, const uint8_t* data, uint64_t bytes, int terminator) {
  std::string& b = buckets_[static_cast<size_t>(to)];
  b.append(reinterpret_cast<const char*>(data), bytes);
  if (terminator >= 0) b.push_back(static_cast<char>(terminator));
  held_ += bytes + (terminator >= 0 ? 1 : 0);
  if (held_ >= flush_bytes_) flush();
}

void Rank0Buckets::flush() {
  for (int r = 0; r < rank_.group.size; ++r) {
    std::string& b = buckets_[static_cast<size_t>(r)];
    if (b.empty()) continue;
    if (r == 0) {
      rank_.fence.attempt([&] { received_.append_bytes(0, reinterpret_cast<const uint8_t*>(b.data()), b.size()); });
    } else {
      const uint64_t n = b.size();
      MPI_Send(&n, 1, MPI_UINT64_T, r, kHeaderTag, rank_.group.comm);
      for (uint64_t at = 0; at < n; at += kMessageBytes) {
        const int part = static_cast<int>(std::min(kMessageBytes, n - at));
        MPI_Send(b.data() + at, part, MPI_BYTE, r, kDataTag, rank_.group.comm);
      }
    }
    b.clear();
  }
  held_ = 0;
}

void Rank0Buckets::end() {
  flush();
  for (int r = 1; r < rank_.group.size; ++r) MPI_Send(&kEndOfStream, 1, MPI_UINT64_T, r, kHeaderTag, rank_.group.comm);
}

void receive_from_rank0(RankContext& rank, ReceivedFiles& received) {
  std::vector<uint8_t> buf;
  for (;;) {
    uint64_t n = 0;
    MPI_Recv(&n, 1, MPI_UINT64_T, 0, kHeaderTag, rank.group.comm, MPI_STATUS_IGNORE);
    if (n == kEndOfStream) return;
    buf.resize(n);
    for (uint64_t at = 0; at < n; at += kMessageBytes) {
      const int part = static_cast<int>(std::min(kMessageBytes, n - at));
      MPI_Recv(buf.data() + at, part, MPI_BYTE, 0, kDataTag, rank.group.comm, MPI_STATUS_IGNORE);
    }
    rank.fence.attempt([&] { received.append_bytes(0, buf.data(), n); });
  }
}

uint64_t rank0_flush_bytes(const RankContext& rank) {
  return std::clamp<uint64_t>(rank.least_memory_bytes / 8, uint64_t{1} << 20, uint64_t{32} << 20);
}

uint64_t rank0_sample_bytes(const RankContext& rank) {
  return std::clamp<uint64_t>(rank.least_memory_bytes / 8, uint64_t{1} << 20, uint64_t{64} << 20);
}

}  // namespace gsort
