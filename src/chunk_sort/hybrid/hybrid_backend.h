// Hybrid CPU+GPU sorting, split by measured throughput: a chunk is cut into pieces on a
// shared queue; a GPU thread and the CPU backend each take the next piece
// whenever they finish one, so each side's share follows the throughput it
// actually reaches in this run (not an estimate from nominal FLOPS). The
// sorted pieces are then merged on the CPU by merge path.
#pragma once

#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

std::unique_ptr<SortBackend> make_hybrid_backend(std::unique_ptr<SortBackend> gpu, const KeyLayout& layout,
                                                 ThreadPool& pool);

}  // namespace gsort
