// Whether spilled runs are compressed (--compress-temp), settled once, just
// before the first run is written, and said under -v and in --stats
// (report.temp):
//  - --compress-temp[=LEVEL] or =on: compressed; =off: not.
//  - auto, the default: measured, not guessed. A sample of the first
//    chunk, in sorted order as its run will hold it, is compressed the way
//    run frames are, on all threads: how much it shrinks, and how fast.
//    The runs are compressed when all of these hold:
//      the sample shrinks kMinSampleRatio times or more;
//      the runs are larger than what the page cache takes at memory speed
//      (io/cache/page_cache_room.h), so that they are written at the pace of the
//      temp device (never, for a temp directory on tmpfs);
//      writing the runs compressed and reading them back takes less time
//      than doing so plain (compression_pays), from the compressor's speed
//      on all threads and that device's, measured by a short O_DIRECT
//      write in the temp directory (io/temp/write_probe.h).
//    A measurement that fails (a probe's write refused) leaves runs plain.
// The figures behind the choice go to report.temp.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "src/merge/temp_runs.h"
#include "src/pipeline/external_sort.h"
#include "src/report/sort_report.h"

namespace gsort {

// A sample shrinking less than this is not worth compressing: zstd's
// time buys too little I/O (docs/benchmarks.md, compress-temp, auto, 2026-11-23).
constexpr double kMinSampleRatio = 1.5;
// Bytes the temp device probe writes.
constexpr uint64_t kProbeBytes = 32 << 20;

// What the page cache takes at memory speed (io/cache/page_cache_room.h) and the
// temp device's write speed (-1: not measured yet), as the test hook
// (test_hooks::temp_device) may set them: what spilling decisions weigh.
struct TempRoom {
  uint64_t page_cache_bytes;
  double device_bytes_per_s;
};
TempRoom temp_room();

// Whether runs that shrink `ratio` times, compressed at compress_bytes_per_s
// on all threads, are written and read back sooner than plain runs on a
// device that writes (and reads) device_bytes_per_s.
bool compression_pays(double ratio, double compress_bytes_per_s, double device_bytes_per_s);

// A sorted chunk, records[order[0..count)], as its run will hold it; none
// (count 0) for --merge.
struct RunSample {
  const uint8_t* records = nullptr;
  const uint32_t* order = nullptr;
  uint64_t count = 0;
};

// Settles how `runs` are compressed (TempRuns::compress) from
// --compress-temp and, for auto, `sample` (none: plain runs), and says why
// in `choice` (the report's) and under -v. Run frames are a quarter of a
// merge window of `source_records` (the plan's), within bounds. Does
// nothing once the choice is made.
void decide_run_compression(const SortContext& ctx, uint64_t source_records, const RunSample& sample,
                            TempRuns& runs, TempChoice& choice);

// The same for any sort's runs (the line sort's too), from the run bytes
// of a sorted chunk: `bytes` of them (0: none), and frame f of `frames`
// spread evenly over them, about frame_bytes long. Run frames are
// `window_bytes` (a merge window) / 4, within bounds.
struct SampleFrames {
  uint64_t bytes = 0;
  std::function<std::vector<uint8_t>(size_t f, size_t frames, uint64_t frame_bytes)> frame;
};
struct TempSettings {
  const SortConfig& config;
  ThreadPool& pool;
  const Log& log;
  uint64_t window_bytes;
};
void decide_run_compression(const TempSettings& settings, const SampleFrames& sample, TempRuns& runs,
                            TempChoice& choice);

}  // namespace gsort
