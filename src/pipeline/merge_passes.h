// Run merging: as many passes as the plan's fan-in needs. While more runs
// are pending than one merge can take, groups of them are merged into new
// runs; the last pass merges what is left into the destination. Each merge
// is the run merger's (src/merge/run_merger.h); its run files are deleted
// as soon as it is done.
#pragma once

#include <vector>

#include "io/output/output_target.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

// pending: spilled runs in the order they were formed, or the inputs of
// --merge; at most job.limits.max_open_runs of them runs.
void merge_all(SortJob& job, std::vector<PendingSource> pending, OutputTarget& output);

// Merges `group` (consecutive sources, in order) into a new run, one level
// above the deepest of them; closes and frees their files.
PendingSource merge_to_run(SortJob& job, std::vector<PendingSource> group);

}  // namespace gsort
