#include "src/lines/line_plan.h"

#include <algorithm>

#include "src/pipeline/memory_plan.h"

namespace gsort {

uint64_t LinePlan::window_bytes(uint64_t sources) const {
  // A quarter of the budget's share each: the buffer, its index, its picks.
  return std::clamp<uint64_t>(budget / 4 / std::max<uint64_t>(sources, 1), 64 << 10, uint64_t{64} << 20);
}

LinePlan plan_lines(uint64_t budget, uint64_t bytes_per_line, uint64_t known_bytes, uint64_t inputs,
                    uint64_t batch_size, uint64_t descriptors, unsigned streams) {
  LinePlan p;
  p.budget = std::max(budget, kMinLineBudget);
  p.max_line = p.budget / 4;
  // Every input may add a terminator, and the reader keeps a byte free
  // for it and one more to see the last input end.
  const uint64_t whole = known_bytes + inputs + 2;
  p.double_buffered = known_bytes == 0 || whole > p.budget / 2;
  p.chunk_bytes = p.double_buffered ? p.max_line + 2 : std::max<uint64_t>(whole, 4096);
  // Each line: its start and its place in the order (per buffer), and the
  // sorter's share.
  const uint64_t per_line = (p.double_buffered ? 2 : 1) * (sizeof(uint64_t) + sizeof(uint32_t)) + bytes_per_line;
  p.chunk_lines = std::min<uint64_t>(p.budget / 2 / per_line, UINT32_MAX - 1);
  p.block_bytes = std::clamp<uint64_t>(p.budget / 64, 64 << 10, 8 << 20);
  p.fan_in = std::clamp<uint64_t>(p.budget / (4 * p.block_bytes), 2, 256);
  if (batch_size != 0) p.fan_in = std::min(p.fan_in, batch_size);
  p.fan_in = std::max<uint64_t>(2, std::min(p.fan_in, descriptors));
  // As records do: the streams share the block, each keeping a useful part.
  const uint64_t room = std::max<uint64_t>(1, p.block_bytes / kMinStreamBlockBytes);
  p.spill_streams = static_cast<unsigned>(std::clamp<uint64_t>(streams != 0 ? streams : kDefaultSpillStreams, 1, room));
  return p;
}

}  // namespace gsort
