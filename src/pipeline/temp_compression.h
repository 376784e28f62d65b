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
//      the compressor on all threads outpaces that device, measured by a
//      short O_DIRECT write in the temp directory (io/temp/write_probe.h).
//    A measurement that fails (a probe's write refused) leaves runs plain.
// The figures behind the choice go to report.temp.
#pragma once

#include <cstdint>

#include "src/pipeline/sort_job.h"

namespace gsort {

// A sample shrinking less than this is not worth compressing: zstd's
// time buys too little I/O (docs/benchmarks.md, "--compress-temp=auto").
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

// Settles job.run_compression from --compress-temp and, for auto, the
// sorted chunk records[order[0..count)] (count 0: nothing to sample, as for
// --merge: plain runs). Does nothing after the first call.
void decide_run_compression(SortJob& job, const uint8_t* records, const uint32_t* order, uint64_t count);

}  // namespace gsort
