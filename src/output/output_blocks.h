// The destination's blocks, for whichever stream of records or lines
// writes it: straight into the output file through a mapping where that is
// allowed and the size is known (io/output/mapped_destination.h: all the
// pool's threads fill the file at once), else write-behind buffers through
// one sink (the output file, or its encoder with --compress-output). Says
// which way it took, and counts the bytes handed over for the progress
// line. One stream writes the destination.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "io/output/block_target.h"
#include "io/output/write_behind.h"

namespace gsort {

// How the destination's bytes were written, for -v and --stats.
enum class OutputWay { kNone, kMapped, kStream };
const char* output_way_name(OutputWay way);

class OutputBlocks {
 public:
  // block_bytes: each write-behind buffer (the plan's block).
  OutputBlocks(WriteBehind::Sink sink, uint64_t block_bytes) : sink_(std::move(sink)), block_bytes_(block_bytes) {}
  OutputBlocks(const OutputBlocks&) = delete;
  OutputBlocks& operator=(const OutputBlocks&) = delete;

  // Blocks over the first `bytes` of the destination, mapped; null where
  // that cannot be done (the writer then goes through the sink).
  using MapRange = std::function<std::unique_ptr<BlockTarget>(uint64_t bytes, uint64_t block_bytes)>;
  // Lets a writer of known size write through `map` (a new regular file
  // that is not encoded, whose bytes the page cache takes).
  void allow_mapping(MapRange map) { map_ = std::move(map); }
  // The first `bytes` of the destination mapped whole, for a writer that
  // fills it anywhere (the parallel merge); null where it cannot be.
  using MapWhole = std::function<uint8_t*(uint64_t bytes)>;
  void allow_whole_mapping(MapWhole map) { map_whole_ = std::move(map); }

  // The blocks of the destination's one writer, each a whole number of
  // `unit` bytes; `bytes`: at most what it will write, where known (0:
  // unknown, which writes through the sink).
  std::unique_ptr<BlockTarget> blocks(uint64_t bytes, uint64_t unit = 1);
  // The destination's sink itself, for a writer that hands it large blocks
  // of its own (the lines' merge in ranges, src/merge/ordered_ranges.h):
  // the stream without a copy into write-behind buffers.
  const WriteBehind::Sink& stream();
  // The destination's first `bytes` mapped whole, for its one writer; null
  // where that cannot be done (blocks() then gives the stream).
  uint8_t* whole(uint64_t bytes);
  // Whether whole() may give a mapping (it may still fail).
  bool may_map_whole() const { return map_whole_ && way_ == OutputWay::kNone && !refused_; }
  OutputWay way() const { return way_; }
  // Advanced by the writer with each block it hands over.
  std::atomic<uint64_t>& written_bytes() { return written_bytes_; }
  const std::atomic<uint64_t>& written_bytes() const { return written_bytes_; }

 private:
  // The writer takes its blocks (test_hooks::before_output, once).
  void starting();

  const WriteBehind::Sink sink_;
  const uint64_t block_bytes_;
  MapRange map_;
  MapWhole map_whole_;
  OutputWay way_ = OutputWay::kNone;
  bool refused_ = false;  // a mapping was tried and could not be had
  bool started_ = false;
  std::atomic<uint64_t> written_bytes_{0};
};

}  // namespace gsort
