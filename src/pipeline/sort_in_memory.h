// The path for an input that fits the budget: read it all into one buffer
// (the backend may start sorting while it fills), sort it, and write it to
// the destination. No temp files.
#pragma once

#include "io/input/input_set.h"
#include "io/output/output_target.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

void sort_in_memory(SortJob& job, InputSet& inputs, OutputTarget& output);

}  // namespace gsort
