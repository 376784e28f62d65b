// Checksums over record bytes, built on xxHash's XXH3 (fast enough that a
// checksum never shows up next to the I/O it guards).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gsort {

// An order-dependent 64-bit hash of a byte stream.
class StreamHash {
 public:
  StreamHash();
  ~StreamHash();
  StreamHash(const StreamHash&) = delete;
  StreamHash& operator=(const StreamHash&) = delete;

  void update(const void* data, size_t bytes);
  uint64_t digest() const;
  // Starts over, as a new hash.
  void reset();
  // The digest of one buffer, in one call.
  static uint64_t of(const void* data, size_t bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The 64-bit hash of one record (for order-independent sums).
uint64_t hash_record(const void* data, size_t bytes);

// The sum (mod 2^64) of hash_record over `count` records of record_size
// bytes each: an order-independent checksum of a multiset of records.
uint64_t hash_record_sum(const void* records, uint64_t count, uint32_t record_size);

// A checksum as messages and --stats show it: 16 lowercase hex digits.
std::string checksum_hex(uint64_t sum);

}  // namespace gsort
