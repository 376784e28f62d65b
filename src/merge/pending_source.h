// What waits to be merged: an input of --merge, or a spilled run in its
// files. Run formation (src/pipeline/form_runs.h) and the merges
// (merge_passes.h) hand these to each other.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "io/file/record_source.h"
#include "io/run/run_file.h"
#include "io/temp/temp_dir.h"

namespace gsort {

// One file of a spilled run. A sorted chunk is spilled as several segments
// written side by side (spill streams, run_output.h), each a contiguous
// slice of the run; a merged run is one segment.
struct RunSegment {
  TempFile file;          // open; see TempDir
  RunIdentity identity;   // the segment's, checked when it is read
};

// A source waiting to be merged: an input of --merge (opened when its
// merge begins), or a spilled run (its segments, read one after another).
struct PendingSource {
  std::function<std::unique_ptr<RecordSource>()> open_input;
  std::vector<RunSegment> segments;
  int level = 0;  // merges its records have been through
  bool is_input() const { return static_cast<bool>(open_input); }
  // Descriptors it holds while it waits.
  size_t open_files() const { return segments.size(); }
};

}  // namespace gsort
