// The GPU sorter of lines (built with CUDA only): a chunk's text and line
// starts are copied to the device, its lines sorted there by image words
// (kernels/line_sort.h: CUB's radix sort of word 0, then rounds over the
// tied segments' next words), and what still ties is settled on the host
// by tie_refine.h, so the order is exactly the CPU sorter's. Chunks the
// device has no room for are sorted on the CPU.
#pragma once

#include <cstdint>
#include <memory>

#include "src/lines/sort/sorter.h"

namespace gsort {

// Refining rounds on the device before the host takes the ties over.
constexpr unsigned kGpuRefineRounds = 8;

// memory_cap: device bytes it may take (0: what the chunk needs).
std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 uint64_t memory_cap, const Log* log = nullptr);

}  // namespace gsort
