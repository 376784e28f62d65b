// The destination as the sort's stages write it: into one sink (the output
// file, or its encoder with --compress-output), or, where allowed, straight
// into the output file through a mapping (io/output/mapped_destination.h),
// with -u applied, every block shown to --verify's check, and the bytes
// written counted for the progress line. A stage takes a writer when it
// starts to write the destination; one writer writes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/output/block_target.h"
#include "io/output/write_behind.h"
#include "src/keys/key_layout.h"
#include "src/output/output_writer.h"
#include "src/verify/output_check.h"

namespace gsort {

// How the destination's bytes were written, for -v and --stats.
enum class OutputWay { kNone, kMapped, kStream };
const char* output_way_name(OutputWay way);

class FinalOutput {
 public:
  // block_bytes: each write-behind buffer (the plan's block). unique_by:
  // the layout for -u, or null. check: --verify's, or null.
  FinalOutput(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes, const KeyLayout* unique_by,
              OutputCheck* check);
  FinalOutput(const FinalOutput&) = delete;
  FinalOutput& operator=(const FinalOutput&) = delete;

  // Blocks over the first `bytes` of the destination, mapped; null where
  // that cannot be done (the writer then goes through the sink).
  using MapRange = std::function<std::unique_ptr<BlockTarget>(uint64_t bytes, uint64_t block_bytes)>;
  // Lets a writer of known size write through `map` (a new regular file
  // that is not encoded, whose bytes the page cache takes).
  void allow_mapping(MapRange map) { map_ = std::move(map); }

  // A writer of the destination; `bytes`: at most what it will write,
  // where known (0: unknown, which writes through the sink).
  std::unique_ptr<OutputWriter> writer(uint64_t bytes = 0);
  OutputWay way() const { return way_; }
  uint32_t record_size() const { return rs_; }
  const std::atomic<uint64_t>& written_bytes() const { return written_bytes_; }

 private:
  const WriteBehind::Sink sink_;
  const uint32_t rs_;
  const uint64_t block_bytes_;
  const KeyLayout* const unique_by_;
  OutputCheck* const check_;
  MapRange map_;
  OutputWay way_ = OutputWay::kNone;
  std::atomic<uint64_t> written_bytes_{0};
};

}  // namespace gsort
