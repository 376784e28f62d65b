// Sorting a caller's buffer of records in place (gsort::sort_records): the
// chunk sort of the backend (GPU or CPU) gives each chunk's order, the
// records are gathered into a second buffer, and chunks (more than the
// 2^32 - 1 records one backend call takes, or more than -S allows) are
// merged back with a loser tree.
#pragma once

#include <cstdint>

#include "src/config/sort_config.h"

namespace gsort {

// Sorts `count` records of config.record_size bytes at `records`, stably,
// by config's key; with config.unique keeps the first of each run of equal
// keys at the front. Returns the records kept. `max_chunk_records` caps a
// chunk below what memory allows (tests use it to reach the merge).
uint64_t sort_records_in_place(uint8_t* records, uint64_t count, const SortConfig& config,
                               uint64_t max_chunk_records = UINT64_MAX);

}  // namespace gsort
