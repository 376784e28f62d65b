// Step 4 of the distributed sort: a rank's ordinary sort (its own backend:
// its GPU, or the CPU) of the records it received, into its part. The
// records are in files (sort_received: the external sort, spilling as the
// budget needs) or, when they fit, already in the backend's chunk buffer
// (sort_received_in_memory).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/sort_backend.h"
#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/pipeline/sort_buffer.h"
#include "src/report/sort_report.h"

namespace gsort {

// Sorts `received` (read in the order given) into `part`, with -u applied
// within the part. rank_config: config_for_rank's.
SortReport sort_received(const SortConfig& rank_config, const KeyLayout& layout,
                         const std::vector<std::string>& received, const std::string& part, ThreadPool& pool,
                         const std::string& shown_as = "");

// One process's -m of `sorted` (read in the order given) into `part`, as
// this rank runs it (-m of records across ranks: each rank's pieces).
SortReport merge_sorted(const SortConfig& rank_config, const KeyLayout& layout, const std::vector<std::string>& sorted,
                        const std::string& part, ThreadPool& pool);

// The backend that sorts `records` received records in memory, made before
// they arrive: they land in a buffer it allocates (pinned for a GPU).
std::unique_ptr<SortBackend> make_receive_backend(const SortConfig& rank_config, const KeyLayout& layout,
                                                  ThreadPool& pool, uint64_t records);

// Sorts the `count` records in `records` (from backend.allocate_host) into
// `part`, or, where `out` has a sink, into that sink (part unused).
SortReport sort_received_in_memory(const SortConfig& rank_config, const KeyLayout& layout, SortBackend& backend,
                                   ThreadPool& pool, uint8_t* records, uint64_t count, const std::string& part,
                                   const SortedBufferOutput& out = {});

}  // namespace gsort
