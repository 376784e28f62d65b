// How the -S budget is spent: whether the whole input is sorted in memory,
// how large a chunk (and so a run) is, how big the I/O blocks are, and how
// many runs one merge pass can take.
#pragma once

#include <cstdint>

#include "src/merge/merge_limits.h"

namespace gsort {

struct MemoryPlan {
  bool in_memory = false;        // the whole input is one chunk, no temp files
  uint64_t chunk_records = 0;    // records per chunk
  uint64_t block_bytes = 0;      // one write-behind buffer (whole records)
  uint64_t source_records = 0;   // read buffer of one merge source, in records
  uint64_t fan_in = 2;           // sources merged at once
  unsigned spill_streams = 1;    // segments a chunk is spilled as, side by side; they share block_bytes
};

// Spill streams without --spill-streams (docs/benchmarks.md, spill-streams, 2026-11-23).
constexpr unsigned kDefaultSpillStreams = 8;

// The least write buffer a spill stream gets: smaller budgets spill fewer
// streams, so that no stream writes in tiny pieces.
constexpr uint64_t kMinStreamBlockBytes = 64 << 10;

// Plans a sort of `budget` bytes. backend_bytes: the backend's host memory
// per chunk record (SortBackend::host_bytes_per_record). total_records is
// used only when size_known. streams: spill streams wanted (at least 1),
// lowered where the block would give each less than kMinStreamBlockBytes.
//
// Spilling holds two chunk buffers (one read while the other is sorted or
// written), two order arrays (a chunk is sorted while the previous one is
// still being written), the backend's space and the write-behind buffers
// of one block, shared by the streams.
MemoryPlan plan_memory(uint64_t budget, uint32_t record_size, uint64_t backend_bytes, bool size_known,
                       uint64_t total_records, unsigned streams = 1);

// What the budget gives each merge's windows (a window, its share of the
// two batch buffers, order and backend space): between plan.source_records
// and 64 MiB of records a source.
MergeWindows merge_windows(const MemoryPlan& plan, uint64_t budget, uint32_t record_size, uint64_t backend_bytes);

// The least -S a sort runs under. Below kMinBudgetBytes runs get so small
// (a few hundred records) that a large input makes thousands of them and
// merges crawl: such a budget is raised to it (said under -v), as GNU sort
// raises a tiny -S. working_set_bytes is what the plan cannot do without
// (two chunk buffers of one record, windows for a two-way merge, the
// output's buffers): for huge records it is more than kMinBudgetBytes, and
// a budget below it is raised with a warning, since gsort then takes more
// memory than it was given.
constexpr uint64_t kMinBudgetBytes = 256 << 10;
uint64_t working_set_bytes(uint32_t record_size, uint64_t backend_bytes);
uint64_t minimum_budget(uint32_t record_size, uint64_t backend_bytes);

}  // namespace gsort
