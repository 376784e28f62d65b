// The checksums of a plain run (one without --compress-temp), by block: its
// records are cut into blocks of whole records (kRunBlockBytes, at least
// one record), and after the last record comes a table of one 64-bit sum
// per block, the XXH3 of the block's bytes mixed with the block's number.
// A block read on its own (the parallel merge reads a range of each run)
// is checked before any of its records is used; a block moved within the
// file does not pass. The run's header holds the XXH3 of the table, which
// a reader of the whole run checks at its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/file/checksum.h"
#include "io/file/file.h"

namespace gsort {

// Record bytes per block: small enough that the blocks a range read cuts
// through cost little, large enough that the table stays a sliver of the
// run (8 bytes per block).
constexpr uint64_t kRunBlockBytes = uint64_t{64} << 10;

// Records per block for records of `record_size` bytes (at least one).
uint64_t run_block_records(uint32_t record_size);
// Blocks of `block_records` that `records` fill (the last may be short).
inline uint64_t run_block_count(uint64_t records, uint64_t block_records) {
  return (records + block_records - 1) / block_records;
}
// The sum of block number `block`, whose record bytes are [data, data+bytes).
uint64_t run_block_sum(const uint8_t* data, size_t bytes, uint64_t block);

// The writer's side: sums the records as they are appended, in any pieces.
class BlockSums {
 public:
  explicit BlockSums(uint32_t record_size);
  void update(const uint8_t* data, size_t bytes);
  // Closes the last (short) block; the table, then its XXH3 (the header's
  // checksum).
  const std::vector<uint64_t>& finish();
  uint64_t table_checksum() const;
  uint64_t block_bytes() const { return block_bytes_; }

 private:
  const uint64_t block_bytes_;
  uint64_t filled_ = 0;  // bytes of the current block
  StreamHash current_;
  std::vector<uint64_t> table_;
};

// A reader of a whole run, in order: checks each block as its last byte
// comes, against the table read from the file as it goes, and at the end
// the table against the header.
class BlockCheck {
 public:
  // The run `file` (named in errors) holds `records` records of
  // `record_size` bytes from `records_at`, in blocks of `block_records`,
  // the table right after them; `table_checksum`: the header's.
  BlockCheck(File& file, uint64_t records_at, uint64_t records, uint32_t record_size, uint64_t block_records,
             uint64_t table_checksum);
  // The next `bytes` of records, in order. Throws DataError when a block
  // they complete does not match its sum.
  void update(const uint8_t* data, size_t bytes);
  // Every record was given: throws DataError unless the table matches the
  // header.
  void finish();

 private:
  // The sum of block `block` from the table, read in pieces.
  uint64_t table_entry(uint64_t block);
  [[noreturn]] void damaged(const std::string& what) const;

  File& file_;
  const uint64_t table_at_;
  const uint64_t blocks_;
  const uint64_t block_bytes_;
  const uint64_t last_block_bytes_;
  const uint64_t table_checksum_;
  uint64_t block_ = 0;   // the block being hashed
  uint64_t filled_ = 0;  // its bytes so far
  StreamHash current_;
  StreamHash table_hash_;
  std::vector<uint64_t> piece_;  // table entries [piece_first_, + size)
  uint64_t piece_first_ = 0;
};

}  // namespace gsort
