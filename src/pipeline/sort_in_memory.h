// The path for an input that fits the budget: read it all into one buffer
// (the backend may start sorting while it fills), or map it, sort it, and
// write it to the destination. No temp files.
#pragma once

#include <cstdint>

#include "io/input/input_set.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/read_progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// capacity: the records the buffer holds (the plan's chunk, the whole input).
// One input in the page cache is sorted from its mapping where the backend
// sorts records in place (the CPU's), unless it is the file `output_fd`
// writes (InputSet::map_whole).
void sort_in_memory(const SortContext& ctx, uint64_t capacity, InputSet& inputs, int output_fd,
                    const ReadProgress& progress, DirectWrite& out, SortReport& report);

}  // namespace gsort
