#include "src/output/output_blocks.h"

#include <algorithm>
#include <utility>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// Blocks of a mapped destination: large enough that the pool's threads
// each fill a good share of one at a time, small enough that --verify and
// the progress line see the output as it grows.
constexpr uint64_t kMappedBlockBytes = uint64_t{64} << 20;

}  // namespace

const char* output_way_name(OutputWay way) {
  switch (way) {
    case OutputWay::kMapped: return "mapped";
    case OutputWay::kStream: return "stream";
    case OutputWay::kNone: break;
  }
  return "none";
}

void OutputBlocks::starting() {
  if (!started_ && test_hooks::before_output) test_hooks::before_output();
  started_ = true;
}

std::unique_ptr<BlockTarget> OutputBlocks::blocks(uint64_t bytes, uint64_t unit) {
  starting();
  // A second writer would start where the file's offset stands, which a
  // mapped writer never moved.
  if (way_ == OutputWay::kMapped) throw Error("internal error: a mapped destination was written twice");
  if (map_ && bytes > 0 && way_ == OutputWay::kNone && !refused_) {
    if (std::unique_ptr<BlockTarget> mapped = map_(bytes, std::max<uint64_t>(kMappedBlockBytes / unit, 1) * unit)) {
      way_ = OutputWay::kMapped;
      return mapped;
    }
  }
  way_ = OutputWay::kStream;
  return std::make_unique<WriteBehind>(sink_, std::max<uint64_t>(block_bytes_ / unit, 1) * unit);
}

const WriteBehind::Sink& OutputBlocks::stream() {
  starting();
  if (way_ != OutputWay::kNone) throw Error("internal error: the destination was written twice");
  way_ = OutputWay::kStream;
  return sink_;
}

uint8_t* OutputBlocks::whole(uint64_t bytes) {
  starting();
  if (way_ != OutputWay::kNone) throw Error("internal error: the destination was written twice");
  if (!map_whole_ || bytes == 0 || refused_) return nullptr;
  uint8_t* data = map_whole_(bytes);
  if (data == nullptr) {
    refused_ = true;
    return nullptr;
  }
  way_ = OutputWay::kMapped;
  return data;
}

}  // namespace gsort
