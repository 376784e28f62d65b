#include "io/run/run_blocks.h"

#include <algorithm>

#include "src/core/errors.h"

namespace gsort {
namespace {

// Table entries read at once by a reader of the whole run (4 KiB).
constexpr uint64_t kTablePiece = 512;

// A block's number, spread over all 64 bits (splitmix64's finaliser).
uint64_t mix(uint64_t block) {
  uint64_t z = block + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t run_block_records(uint32_t record_size) { return std::max<uint64_t>(1, kRunBlockBytes / record_size); }

uint64_t run_block_sum(const uint8_t* data, size_t bytes, uint64_t block) {
  return StreamHash::of(data, bytes) ^ mix(block);
}

BlockSums::BlockSums(uint32_t record_size) : block_bytes_(run_block_records(record_size) * record_size) {}

void BlockSums::update(const uint8_t* data, size_t bytes) {
  while (bytes > 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes, block_bytes_ - filled_));
    current_.update(data, n);
    filled_ += n;
    data += n;
    bytes -= n;
    if (filled_ == block_bytes_) {
      table_.push_back(current_.digest() ^ mix(table_.size()));
      current_.reset();
      filled_ = 0;
    }
  }
}

const std::vector<uint64_t>& BlockSums::finish() {
  if (filled_ > 0) {
    table_.push_back(current_.digest() ^ mix(table_.size()));
    current_.reset();
    filled_ = 0;
  }
  return table_;
}

uint64_t BlockSums::table_checksum() const { return StreamHash::of(table_.data(), table_.size() * sizeof(uint64_t)); }

BlockCheck::BlockCheck(File& file, uint64_t records_at, uint64_t records, uint32_t record_size,
                       uint64_t block_records, uint64_t table_checksum)
    : file_(file),
      table_at_(records_at + records * record_size),
      blocks_(run_block_count(records, block_records)),
      block_bytes_(block_records * record_size),
      last_block_bytes_(records * record_size - (blocks_ > 0 ? (blocks_ - 1) * block_bytes_ : 0)),
      table_checksum_(table_checksum) {}

void BlockCheck::damaged(const std::string& what) const {
  throw DataError("run file " + file_.path() + " is corrupted (" + what + ")");
}

uint64_t BlockCheck::table_entry(uint64_t block) {
  if (block >= piece_first_ + piece_.size()) {
    // Pieces are read in order, so the table is hashed in order too.
    piece_first_ = block;
    piece_.resize(static_cast<size_t>(std::min(kTablePiece, blocks_ - block)));
    const size_t bytes = piece_.size() * sizeof(uint64_t);
    if (file_.pread_full(piece_.data(), bytes, table_at_ + block * sizeof(uint64_t)) != bytes) {
      damaged("its block table is cut short");
    }
    table_hash_.update(piece_.data(), bytes);
  }
  return piece_[block - piece_first_];
}

void BlockCheck::update(const uint8_t* data, size_t bytes) {
  while (bytes > 0) {
    if (block_ == blocks_) damaged("more records than the header counts");
    const uint64_t size = block_ + 1 == blocks_ ? last_block_bytes_ : block_bytes_;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes, size - filled_));
    current_.update(data, n);
    filled_ += n;
    data += n;
    bytes -= n;
    if (filled_ == size) {
      if ((current_.digest() ^ mix(block_)) != table_entry(block_)) {
        damaged("checksum mismatch in block " + std::to_string(block_ + 1));
      }
      current_.reset();
      filled_ = 0;
      ++block_;
    }
  }
}

void BlockCheck::finish() {
  if (block_ != blocks_) damaged("fewer records than the header counts");
  if (table_hash_.digest() != table_checksum_) damaged("checksum mismatch in its block table");
}

}  // namespace gsort
