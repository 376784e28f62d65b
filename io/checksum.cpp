#define XXH_INLINE_ALL  // header-only xxHash: no shared library to carry to the GPU machine
#include "io/checksum.h"

#include <xxhash.h>

namespace gsort {

struct StreamHash::State {
  XXH3_state_t xxh;
};

StreamHash::StreamHash() : state_(new State) { XXH3_64bits_reset(&state_->xxh); }
StreamHash::~StreamHash() = default;

void StreamHash::update(const void* data, size_t bytes) { XXH3_64bits_update(&state_->xxh, data, bytes); }

uint64_t StreamHash::digest() const { return XXH3_64bits_digest(&state_->xxh); }

uint64_t hash_record(const void* data, size_t bytes) { return XXH3_64bits(data, bytes); }

}  // namespace gsort
