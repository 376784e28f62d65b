// A plain run laid out in memory, a mapping of its whole file, by writers
// that fill its records at their places (the parallel merge's ranges
// merging into a run), then finished there: its block table, summed on
// the pool's threads, after the records, and its header first. The bytes
// are those RunWriter writes for the same records (run_file.h,
// run_blocks.h).
#pragma once

#include <cstdint>

#include "io/run/run_file.h"
#include "src/core/thread_pool.h"

namespace gsort {

// The file's size for a plain run of `records` records of `record_size`
// bytes: header, records, block table. The records start at byte
// sizeof(RunHeader).
uint64_t plain_run_bytes(uint64_t records, uint32_t record_size);

// Writes the table and the header of the run whose records fill
// [file + sizeof(RunHeader), + records * record_size).
void finish_plain_run(uint8_t* file, uint64_t records, uint32_t record_size, const RunIdentity& identity,
                      ThreadPool& pool);

}  // namespace gsort
