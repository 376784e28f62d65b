// Sorting records a caller has already put in memory: the in-memory path
// of external_sort.h without its reading, for callers that fill the
// backend's chunk buffer themselves (the distributed sort lands the records
// it receives there). The output is written as the in-memory path writes
// it (gather, -u, write-behind) and committed to ctx.config.output.
#pragma once

#include <cstdint>

#include "src/pipeline/external_sort.h"

namespace gsort {

// `records`: `count` records in a buffer from ctx.backend.allocate_host
// (count below 2^32). No --verify and no --compress-output here: callers
// that need them sort files with external_sort.
SortReport sort_filled_buffer(const SortContext& ctx, uint8_t* records, uint64_t count);

}  // namespace gsort
