// Run formation: the input in chunks, each sorted by the backend and
// spilled to a run file while the next chunk is read. When the whole input
// turns out to be one chunk, it goes straight to the destination instead.
#pragma once

#include <functional>
#include <vector>

#include "io/input/input_set.h"
#include "src/merge/merge_passes.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/memory_plan.h"
#include "src/pipeline/read_progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// What run formation takes.
// The destination made ready while a stream's first chunk is read, for the
// case that the chunk holds the whole stream (MappedDestination::prepare_growing).
struct OutputGrowth {
  std::function<void(uint64_t bytes)> arrived;  // the output will be at least `bytes` long
  std::function<void()> abandon;                // it will not be written from one chunk
};

struct RunFormation {
  const SortContext& ctx;
  const MemoryPlan& plan;  // the chunk, the spill streams, the merges' source windows (run frames)
  InputSet& inputs;
  ReadProgress progress;
  TempRuns& runs;       // where the runs are written
  RunMerges& merges;    // merges waiting runs early
  DirectWrite& direct;  // where an input of one chunk goes
  uint64_t budget = 0;  // -S as used: the device's staging slots are a share of it
  OutputGrowth* growth = nullptr;  // a stream's destination, made ready as it is read
  // The final merge will read the runs in order (the output is not
  // mapped): the device keeps its last run for it (device_runs.h).
  bool hold_last_device_run = false;
};

// Returns the runs in the order they were formed (empty when the input was
// one chunk and has been written to the destination). Spills, sorts, reads
// and --compress-temp's choice go to `report`.
std::vector<PendingSource> form_runs(const RunFormation& f, SortReport& report);

}  // namespace gsort
