// What one gsort run did: sizes, runs, passes, the wall time of each phase,
// and the timeline of phases (when each started and ended), for -v, --stats
// and --trace.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/core/process_clock.h"

namespace gsort {

// One phase on one thread: when it started and ended, in seconds since
// gsort started (src/core/process_clock.h).
struct PhaseSpan {
  std::string phase;
  std::string thread;
  double start_s = 0;
  double end_s = 0;
};

// How spilled runs are written, settled before the first run is
// (src/pipeline/temp_compression.h): for -v and --stats.
struct TempChoice {
  const char* mode = "auto";       // --compress-temp: "auto", "on" or "off"
  bool decided = false;            // a run was spilled, so the choice was made
  bool compressed = false;
  int level = 0;                   // zstd level when compressed
  std::string reason;              // why, in words
  double sample_ratio = 0;         // a sample of the first chunk: bytes in / bytes out (0: not sampled)
  double compress_bytes_per_s = 0;  // the compressor on all threads, measured on that sample
  double device_bytes_per_s = 0;   // the temp device's write speed (0: not measured)
  uint64_t page_cache_room = 0;    // written bytes the page cache absorbs before throttling
  uint64_t expected_bytes = 0;     // what the runs were expected to hold (0: unknown)
  unsigned streams = 1;            // spill streams: files a run is written as at once
  bool writeback_paced = false;    // runs and output handed to the disk as written, and dropped from the cache
                                   // (decided by the plan, src/pipeline/sort_plan.cpp)
};

struct SortReport {
  uint64_t input_records = 0;
  uint64_t input_bytes = 0;
  uint64_t output_records = 0;
  uint64_t runs = 0;          // sorted runs spilled to the temp directory
  uint64_t merge_passes = 0;  // passes over spilled runs (0: sorted in memory)
  uint64_t merge_batches = 0;  // batches the merges worked in
  uint64_t early_merges = 0;   // merges of waiting runs before the input ended (run_stack.h)
  uint64_t memory_budget = 0;  // -S as used: raised to the minimum when below it
  uint64_t peak_anonymous_bytes = 0;  // the process's anonymous memory at its peak, sampled (0: not sampled)
  uint64_t temp_bytes = 0;    // bytes written to run files (as stored: compressed with --compress-temp)
  uint64_t temp_record_bytes = 0;  // record bytes spilled to run files (before compression)
  uint64_t input_stored_bytes = 0;   // bytes read from the input files (compressed size for zstd inputs)
  uint64_t output_bytes = 0;         // record bytes written to the destination (before compression)
  uint64_t output_stored_bytes = 0;  // bytes written to the destination (after compression)
  std::string output_way;            // "mapped" (threads fill the file through a mapping) or "stream"
  std::string output_way_why;        // why not mapped, where it was not
  bool verified = false;             // --verify ran and the output matched the input
  uint64_t verify_hash_sum = 0;      // the input's order-independent checksum (--verify)
  uint64_t chunk_records = 0;
  bool in_memory = false;
  uint64_t device_resident_bytes = 0;  // GPU memory that held the whole input for a one-pass sort, or lines' held runs (0: not so)
  uint64_t device_held_runs = 0;       // runs kept in GPU memory for the merge instead of the temporary directory
  std::string device_tier_why;         // why a spilled sort's input (or runs) was not held on the GPU, where it was asked
  TempChoice temp;
  std::vector<std::pair<std::string, double>> phases;  // in order, seconds (summed over repeats)
  std::vector<PhaseSpan> timeline;                     // every phase span, in the order they were added

  // The timeline ordered by start (spans of other threads are added when
  // their thread is done, so `timeline` itself is not).
  std::vector<PhaseSpan> timeline_by_start() const {
    std::vector<PhaseSpan> spans = timeline;
    std::stable_sort(spans.begin(), spans.end(),
                     [](const PhaseSpan& a, const PhaseSpan& b) { return a.start_s < b.start_s; });
    return spans;
  }

  // A phase of the main thread that has just ended after `seconds`.
  void add_phase(const std::string& name, double seconds) {
    const double end = process_seconds();
    add_span(PhaseSpan{name, "main", end - seconds, end});
  }

  // A phase as it ran on some thread (it also counts in `phases`).
  void add_span(const PhaseSpan& span) {
    timeline.push_back(span);
    add_duration(span.phase, span.end_s - span.start_s);
  }

  // Time spent in a phase that is no one span (summed over threads or over
  // interleaved pieces): counts in `phases` only.
  void add_duration(const std::string& name, double seconds) {
    for (auto& p : phases) {
      if (p.first == name) {
        p.second += seconds;
        return;
      }
    }
    phases.emplace_back(name, seconds);
  }
};

}  // namespace gsort
