// --compress-output with several ranks (issue 55): each rank compresses its
// part on its own, and the compressed parts laid end to end are one valid
// file, since every format gsort writes concatenates: zstd frames, gzip
// members, bzip2 and xz streams are each read one after another by their
// decoders (and by gsort's).
#pragma once

#include <cstdint>
#include <string>

#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"

namespace gsort {

// Compresses bytes [skip, skip + bytes) of the file at `from` into the
// (existing, empty) file at `to`, in config's format and level; returns
// the compressed size.
uint64_t compress_part(const std::string& from, uint64_t skip, uint64_t bytes, const std::string& to,
                       const SortConfig& config, ThreadPool& pool);

}  // namespace gsort
