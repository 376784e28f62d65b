#include "src/output/final_output.h"

#include <algorithm>
#include <utility>

#include "src/core/errors.h"

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

FinalOutput::FinalOutput(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes,
                         const KeyLayout* unique_by, OutputCheck* check)
    : sink_(std::move(sink)), rs_(record_size), block_bytes_(block_bytes), unique_by_(unique_by), check_(check) {}

std::unique_ptr<OutputWriter> FinalOutput::writer(uint64_t bytes) {
  // A second writer would start where the file's offset stands, which a
  // mapped writer never moved.
  if (way_ == OutputWay::kMapped) throw Error("internal error: a mapped destination was written twice");
  std::unique_ptr<OutputWriter> out;
  if (map_ && bytes > 0 && way_ == OutputWay::kNone) {
    const uint64_t block = std::max<uint64_t>(kMappedBlockBytes / rs_, 1) * rs_;
    if (std::unique_ptr<BlockTarget> mapped = map_(bytes, block)) {
      out = std::make_unique<OutputWriter>(std::move(mapped), rs_, unique_by_);
      way_ = OutputWay::kMapped;
    }
  }
  if (!out) {
    out = std::make_unique<OutputWriter>(sink_, rs_, block_bytes_, unique_by_);
    way_ = OutputWay::kStream;
  }
  out->final_output(check_);
  out->count_bytes(&written_bytes_);
  return out;
}

}  // namespace gsort
