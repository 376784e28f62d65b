#define XXH_INLINE_ALL  // header-only xxHash: no shared library to carry to the GPU machine
#include "io/file/checksum.h"

#include <xxhash.h>

#include <cstdio>

namespace gsort {

struct StreamHash::State {
  XXH3_state_t xxh;
};

StreamHash::StreamHash() : state_(new State) { XXH3_64bits_reset(&state_->xxh); }
StreamHash::~StreamHash() = default;

void StreamHash::update(const void* data, size_t bytes) { XXH3_64bits_update(&state_->xxh, data, bytes); }

void StreamHash::reset() { XXH3_64bits_reset(&state_->xxh); }

uint64_t StreamHash::digest() const { return XXH3_64bits_digest(&state_->xxh); }

uint64_t StreamHash::of(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

uint64_t hash_record(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

uint64_t hash_record_sum(const void* records, uint64_t count, uint32_t record_size) {
  const auto* p = static_cast<const uint8_t*>(records);
  uint64_t sum = 0;
  for (uint64_t i = 0; i < count; ++i) sum += XXH3_64bits(p + i * record_size, record_size);
  return sum;
}

std::string checksum_hex(uint64_t sum) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(sum));
  return buf;
}

}  // namespace gsort
