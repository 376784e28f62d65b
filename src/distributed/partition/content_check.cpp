#include "src/distributed/partition/content_check.h"

#include <algorithm>
#include <memory>
#include <string>
#include <system_error>

#include "io/file/checksum.h"
#include "io/input/mapped_input.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Mapped a window at a time where it can be: the page cache's pages hashed
// in place, three times as fast as copied by pread (here); read where not.
constexpr uint64_t kHashWindowBytes = 64ull << 20;
// Hashed between looks at the stop flag; the read buffer's size.
constexpr uint64_t kHashStepBytes = 1ull << 20;

// Feeds bytes [at, at + bytes) of `file` to `hash`; false where `stop`
// was raised meanwhile.
bool hash_window(File& file, uint64_t at, uint64_t bytes, StreamHash& hash, const std::atomic<bool>& stop,
                 std::unique_ptr<uint8_t[]>& block) {
  const std::unique_ptr<MappedInput> mapped = MappedInput::map(file, at, at + bytes);
  if (!mapped && !block) block.reset(new uint8_t[kHashStepBytes]);
  for (uint64_t done = 0; done < bytes; done += kHashStepBytes) {
    if (stop) return false;
    const size_t step = static_cast<size_t>(std::min(kHashStepBytes, bytes - done));
    if (mapped) {
      hash.update(mapped->bytes() + done, step);
      continue;
    }
    if (file.pread_full(block.get(), step, at + done) != step) {
      throw DataError(file.display_name() + ": the file shrank while it was read");
    }
    hash.update(block.get(), step);
  }
  return true;
}

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
  std::unique_ptr<uint8_t[]> block;  // made where a window cannot be mapped
  StreamHash hash;
  for (const ContentPiece& piece : mine_) {
    hash.reset();
    for (uint64_t done = 0; done < piece.bytes; done += kHashWindowBytes) {
      const uint64_t window = std::min(kHashWindowBytes, piece.bytes - done);
      if (!hash_window(inputs_.file(piece.file), piece.offset + done, window, hash, stop_, block)) return;
    }
    hashes_.push_back(hash.digest());
  }
}

void ContentCheck::compare(RankContext& rank) {
  rank.fence.attempt([&] {
    // Each rank's inputs still what it opened: one written meanwhile gave
    // garbled units or a mix of versions, whatever the views.
    inputs_.check_unchanged();
    if (piece_count_ == 0) return;  // one view (alike on every rank), or no records
    if (thread_.joinable()) {
      thread_.join();
      if (error_) std::rethrow_exception(error_);
    } else {
      hash_pieces();  // no thread could be started: hashed here, now
    }
  });
  rank.fence.agree();
  if (piece_count_ == 0) return;
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
