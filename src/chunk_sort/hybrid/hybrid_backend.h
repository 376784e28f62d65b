// Hybrid CPU+GPU sorting, split by measured throughput: a chunk is cut into
// pieces on a shared queue; a GPU thread and the CPU backend each take the
// next piece whenever they finish one, so each side's share follows the
// throughput it actually reaches in this run (not an estimate from nominal
// FLOPS). The sorted pieces are then merged on the CPU by merge path.
#pragma once

#include <functional>
#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Makes the GPU side, given the pool it is to use for its host work.
using MakeGpuSide = std::function<std::unique_ptr<SortBackend>(ThreadPool& gpu_pool)>;

// The CPU side (`cpu`, sorting on `pool`) is given; the GPU side, made by
// make_gpu, gets a pool of the same size owned by the hybrid backend (the
// two sides run at once).
std::unique_ptr<SortBackend> make_hybrid_backend(const KeyLayout& layout, ThreadPool& pool,
                                                 std::unique_ptr<SortBackend> cpu, const MakeGpuSide& make_gpu);

}  // namespace gsort
