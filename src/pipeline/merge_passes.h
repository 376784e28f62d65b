// Run merging: as many passes as the plan's fan-in needs. While more runs
// are pending than one merge can take, groups of them are merged into new
// runs; the last pass merges what is left into the destination. Each merge
// is the run merger's (src/merge/run_merger.h); its run files are deleted
// as soon as it is done.
#pragma once

#include <vector>

#include "io/output_target.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

// pending: spilled runs in the order they were formed, or the inputs of
// --merge.
void merge_all(SortJob& job, std::vector<PendingSource> pending, OutputTarget& output);

}  // namespace gsort
