// What waits to be merged: an input of --merge, or a spilled run in its
// files. Run formation (src/pipeline/form_runs.h) and the merges
// (merge_passes.h) hand these to each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "io/file/record_source.h"
#include "io/run/run_file.h"
#include "io/temp/temp_dir.h"
#include "src/core/test_hooks.h"

namespace gsort {

// One file of a spilled run. A sorted chunk is spilled as several segments
// written side by side (spill streams, run_output.h), each a contiguous
// slice of the run; a merged run is one segment.
struct RunSegment {
  TempFile file;          // open; see TempDir
  RunIdentity identity;   // the segment's, checked when it is read
  uint64_t records = 0;   // it holds, once written
  // --compress-program (TempRuns::sealed): `file` made beside the segment
  // for its compressed bytes, until they are written there; then
  // `file` holds them, and the compressor (a CompressProgram::Child, 0
  // once waited for) is waited for before the segment is read.
  TempFile packed;
  uint64_t compressor = 0;
  bool through_program = false;
};

// A source waiting to be merged: an input of --merge (opened when its
// merge begins), or a spilled run (its segments, read one after another).
struct PendingSource {
  std::function<std::unique_ptr<RecordSource>()> open_input;
  std::vector<RunSegment> segments;
  // A run that never went to the disk (src/pipeline/held_device_run.h):
  // opened once, by the merge that reads it in order; it holds
  // `host_bytes` of host memory until then, which that merge's windows
  // leave to it.
  std::function<std::unique_ptr<RecordSource>()> open_held;
  uint64_t host_bytes = 0;
  int level = 0;  // merges its records have been through
  bool is_input() const { return static_cast<bool>(open_input); }
  bool is_held() const { return static_cast<bool>(open_held); }
  // Descriptors it holds while it waits.
  size_t open_files() const { return segments.size(); }
};

// --merge's inputs as sources, each opened (`openers`, InputSet::lazy_sources)
// when its merge first reads it; `owner`, where given, is kept alive as long
// as any of them (the InputSet the openers read from).
inline std::vector<PendingSource> input_sources(std::vector<std::function<std::unique_ptr<RecordSource>()>> openers,
                                                std::shared_ptr<const void> owner = nullptr) {
  std::vector<PendingSource> sources(openers.size());
  for (size_t i = 0; i < openers.size(); ++i) {
    if (owner) {
      sources[i].open_input = [owner, open = std::move(openers[i])] { return open(); };
    } else {
      sources[i].open_input = std::move(openers[i]);
    }
  }
  return sources;
}

// test_hooks::before_final_merge on each file of each run, numbered in the
// final merge's order, where a test set it (records' and lines' merges).
inline void before_final_merge(const std::vector<PendingSource>& runs) {
  if (!test_hooks::before_final_merge) return;
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t s = 0; s < runs[r].segments.size(); ++s) {
      test_hooks::before_final_merge(runs[r].segments[s].file.file.fd(), r, s);
    }
  }
}

}  // namespace gsort
