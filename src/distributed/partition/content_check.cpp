#include "src/distributed/partition/content_check.h"

#include <algorithm>
#include <memory>
#include <string>
#include <system_error>

#include "io/file/checksum.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Read and hashed at a time: small enough to stay in the cache while hashed.
constexpr uint64_t kHashBlockBytes = 1 << 20;

}  // namespace

ContentCheck::ContentCheck(const ConcatenatedInputs& inputs, const InputViews& views, int rank)
    : inputs_(inputs), in_rank0s_view_(views.view_of(rank) == views.view_of(0)) {
  if (views.views() < 2) return;
  const auto by_slice = content_pieces(inputs.file_starts(), inputs.record_size(), views.ranks());
  for (const auto& slice : by_slice) piece_count_ += slice.size();
  mine_ = pieces_to_hash(by_slice, views, rank);
  try {
    thread_ = std::thread([this] {
      try {
        hash_pieces();
      } catch (...) {
        error_ = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    // No thread to be had (a memory limit): compare() hashes them itself.
  }
}

ContentCheck::~ContentCheck() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void ContentCheck::hash_pieces() {
  std::unique_ptr<uint8_t[]> block(new uint8_t[kHashBlockBytes]);
  StreamHash hash;
  for (const ContentPiece& piece : mine_) {
    hash.reset();
    File& file = inputs_.file(piece.file);
    for (uint64_t done = 0; done < piece.bytes;) {
      if (stop_) return;
      const size_t want = static_cast<size_t>(std::min(kHashBlockBytes, piece.bytes - done));
      if (file.pread_full(block.get(), want, piece.offset + done) != want) {
        throw DataError(file.display_name() + ": the file shrank while it was read");
      }
      hash.update(block.get(), want);
      done += want;
    }
    hashes_.push_back(hash.digest());
  }
}

void ContentCheck::compare(RankContext& rank) {
  if (piece_count_ == 0) return;  // one view (alike on every rank), or no records
  rank.fence.attempt([&] {
    if (thread_.joinable()) {
      thread_.join();
      if (error_) std::rethrow_exception(error_);
    } else {
      hash_pieces();  // no thread could be started: hashed here, now
    }
  });
  rank.fence.agree();
  // Rank 0's view hashed each piece on exactly one of its ranks; the others add nothing.
  std::vector<uint64_t> given(piece_count_, 0), rank0s(piece_count_, 0);
  if (in_rank0s_view_) {
    for (size_t i = 0; i < mine_.size(); ++i) given[mine_[i].index] = hashes_[i];
  }
  MPI_Allreduce(given.data(), rank0s.data(), static_cast<int>(piece_count_), MPI_UINT64_T, MPI_BOR, rank.group.comm);
  rank.fence.attempt([&] {
    for (size_t i = 0; i < mine_.size(); ++i) {
      const ContentPiece& p = mine_[i];
      if (hashes_[i] == rank0s[p.index]) continue;
      throw UsageError("input '" + rank.config.inputs[p.file] + "' differs from rank 0's (content of bytes " +
                       std::to_string(p.offset) + " to " + std::to_string(p.offset + p.bytes - 1) + ", hashed " +
                       checksum_hex(hashes_[i]) + " against " + checksum_hex(rank0s[p.index]) +
                       "): every rank must read the same file");
    }
  });
  rank.fence.agree();
}

}  // namespace gsort
