// The CPU backend. It sorts (key prefix, record index) entries, never the
// records themselves; ties past the 8-byte prefix are settled by comparing
// the records.
//  - sort_order, the usual path (64Ki records or more, several threads):
//    one most-significant-byte pass splits the entries into 256 buckets,
//    stably and in parallel; then each bucket is LSD radix sorted on the
//    prefix by one thread. When one bucket would hold over half of the
//    entries (skewed keys), and for small chunks or one thread, it falls
//    back to slices: each thread radix sorts a slice, and the slices are
//    merged pairwise by merge path on all threads.
//  - begin_stream (a pipe's chunk, with 4 threads or more): sorted in
//    pieces while it arrives, merged in one pass when it ends
//    (stream_piece_sort.h).
//  - merge_order (the run merge's batches): keys are extracted in
//    parallel, then the runs are merged pairwise by merge path on all
//    threads; small batches or one thread use a loser tree on one thread.
#pragma once

#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

std::unique_ptr<SortBackend> make_cpu_backend(const KeyLayout& layout, ThreadPool& pool);

}  // namespace gsort
