// Checksums over record bytes, built on xxHash's XXH3 (fast enough that a
// checksum never shows up next to the I/O it guards).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

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

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The 64-bit hash of one record (for order-independent sums).
uint64_t hash_record(const void* data, size_t bytes);

}  // namespace gsort
