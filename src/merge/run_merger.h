// The run merger: a k-way merge of sorted record sources (spilled runs, or
// the inputs of --merge) into one sorted stream. Equal keys come out in
// source order, so merging runs in the order they were formed keeps the
// sort stable.
//
// It works in batches. Each source has a window of records in memory. The
// smallest of the windows' last records (by key, then source) is the
// frontier: every windowed record at or before it can be output now, since
// no record still on disk can sort before it. Those records are laid end to
// end and the backend's merge_order computes their merged order (the CPU
// backend: pairwise merge-path merges on all threads, or a loser tree on
// one thread for small batches; the GPU backends: a stable sort of the
// batch, which gives the same order). The records are then gathered into
// the output by the pool's threads while the next batch is prepared.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "io/file/record_source.h"
#include "src/keys/key_layout.h"
#include "src/output/output_writer.h"

namespace gsort {

struct MergeOptions {
  uint64_t window_records = 1;  // records each source holds in memory
  // Verify that every source is itself sorted (inputs of --merge); a
  // violation throws DataError naming the source and record.
  bool verify_sources_sorted = false;
  // Advanced by the bytes of each buffer a source delivers (progress line).
  std::atomic<uint64_t>* bytes_read = nullptr;
};

// Where a merge spent its time (seconds; the two sides overlap).
struct MergeTimings {
  double prepare_s = 0;  // refilling windows and laying out batches
  double order_s = 0;    // the backend's merge order
  double output_s = 0;   // gathering records into the output
  double wait_s = 0;     // the consumer waiting for a prepared batch
  double setup_s = 0;    // allocating windows and batch buffers
  uint64_t batches = 0;
  uint64_t largest_batch = 0;  // records
};

// Merges all sources into out; returns the records read. Batches are
// prepared (windows refilled, records laid out, with `pool`) on a thread of
// their own while the previous batch is ordered and written. `timings` may
// be null.
uint64_t merge_runs(std::vector<std::unique_ptr<RecordSource>>& sources, const KeyLayout& layout,
                    SortBackend& backend, ThreadPool& pool, const MergeOptions& options, OutputWriter& out,
                    MergeTimings* timings = nullptr);

}  // namespace gsort
