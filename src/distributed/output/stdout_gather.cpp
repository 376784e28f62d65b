#include "src/distributed/output/stdout_gather.h"

#include <algorithm>
#include <vector>

namespace gsort {
namespace {

constexpr uint64_t kChunkBytes = uint64_t{8} << 20;
constexpr uint64_t kEnd = 0;  // a rank's part has no more bytes, or it failed
constexpr int kHeaderTag = 1, kDataTag = 2;

// Reads the part's next chunk; false (the failure kept on the fence) where it cannot.
bool read_chunk(RankFence& fence, File* in, uint64_t at, uint64_t n, std::vector<uint8_t>& buf) {
  bool read = false;
  fence.attempt([&] {
    buf.resize(n);
    if (in->pread_full(buf.data(), n, at) != n) throw IoError("a rank's sorted part is shorter than it was");
    read = true;
  });
  return read;
}

}  // namespace

void gather_parts_to_stdout(const RankGroup& group, RankFence& fence, const std::string& part, uint64_t skip,
                            uint64_t bytes, File* out) {
  File in;
  bool readable = bytes == 0;
  fence.attempt([&] {
    if (bytes > 0) in = File::open_read(part);
    readable = true;
  });
  std::vector<uint8_t> buf;
  if (group.rank != 0) {
    for (uint64_t at = 0; readable && at < bytes;) {
      const uint64_t n = std::min(kChunkBytes, bytes - at);
      if (!read_chunk(fence, &in, skip + at, n, buf)) break;
      MPI_Send(&n, 1, MPI_UINT64_T, 0, kHeaderTag, group.comm);
      MPI_Send(buf.data(), static_cast<int>(n), MPI_BYTE, 0, kDataTag, group.comm);
      at += n;
    }
    MPI_Send(&kEnd, 1, MPI_UINT64_T, 0, kHeaderTag, group.comm);
    return;
  }
  // Rank 0: its own part, then every other rank's in turn.
  bool writing = true;
  const auto write = [&](const uint8_t* data, uint64_t n) {
    if (!writing) return;
    fence.attempt([&] { out->write_all(data, n); });
    writing = !fence.failed();
  };
  for (uint64_t at = 0; readable && at < bytes;) {
    const uint64_t n = std::min(kChunkBytes, bytes - at);
    if (!read_chunk(fence, &in, skip + at, n, buf)) break;
    write(buf.data(), n);
    at += n;
  }
  writing = !fence.failed();
  for (int r = 1; r < group.size; ++r) {
    for (;;) {
      uint64_t n = 0;
      MPI_Recv(&n, 1, MPI_UINT64_T, r, kHeaderTag, group.comm, MPI_STATUS_IGNORE);
      if (n == kEnd) break;
      buf.resize(n);
      MPI_Recv(buf.data(), static_cast<int>(n), MPI_BYTE, r, kDataTag, group.comm, MPI_STATUS_IGNORE);
      write(buf.data(), n);
    }
  }
}

}  // namespace gsort
