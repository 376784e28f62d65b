// Run formation: the input in chunks, each sorted by the backend and
// spilled to a run file while the next chunk is read. When the whole input
// turns out to be one chunk, it goes straight to the destination instead.
#pragma once

#include <vector>

#include "io/input/input_set.h"
#include "io/output/output_target.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

// Returns the runs in the order they were formed (empty when the input was
// one chunk and has been written to `output`).
std::vector<PendingSource> form_runs(SortJob& job, InputSet& inputs, OutputTarget& output);

}  // namespace gsort
