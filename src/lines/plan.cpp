#include "src/lines/plan.h"

#include <algorithm>

#include "io/output/write_behind.h"
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
  p.block_bytes = std::clamp<uint64_t>(p.budget / 64, 64 << 10, 8 << 20);
  p.held_block_bytes = std::clamp<uint64_t>(p.budget / 32, p.block_bytes, 64 << 20);
  // What a held run's buffers take beyond the writers' blocks comes out of
  // the indexes' half (a sort of one chunk writes no run); a small budget's
  // plan stays as it was.
  const uint64_t held_buffers = p.double_buffered ? kWriteBehindBuffers * (p.held_block_bytes - p.block_bytes) : 0;
  p.chunk_lines = std::min<uint64_t>((p.budget / 2 - held_buffers) / per_line, UINT32_MAX - 1);
  p.fan_in = std::clamp<uint64_t>(p.budget / (4 * p.block_bytes), 2, 256);
  p.memory_fan_in = p.fan_in;
  if (batch_size != 0) p.fan_in = std::min(p.fan_in, batch_size);
  // A merge of waiting runs holds their files and its output's.
  const uint64_t files = std::max<uint64_t>(descriptors, 3) - 1;
  p.fan_in = std::max<uint64_t>(2, std::min(p.fan_in, files));
  // As records do: the streams share the block, each keeping a useful part,
  // and a run takes at most a quarter of the files.
  const uint64_t room = std::clamp<uint64_t>(std::min(p.block_bytes / kMinStreamBlockBytes, files / 4), 1, UINT32_MAX);
  p.spill_streams = static_cast<unsigned>(std::clamp<uint64_t>(streams != 0 ? streams : kDefaultLineSpillStreams, 1, room));
  // Beside the waiting files: the next spill's, or one merge's output.
  p.waiting_files = std::max<uint64_t>(files - p.spill_streams, 1);
  return p;
}

namespace {

// What a chunk of a spilled sort holds at most, lines of `line_length`
// bytes on average (rounded up): it ends at a buffer's bytes (less the
// partial line carried into the next) or at chunk_lines lines, whichever
// comes first.
uint64_t chunk_text(const LinePlan& plan, uint64_t line_length) {
  const uint64_t text = plan.chunk_bytes > line_length ? plan.chunk_bytes - line_length : 1;
  return std::max<uint64_t>(1, std::min(text, plan.chunk_lines * line_length));
}

// The merges of `chunks` runs of at most `run` bytes (src/merge/
// merge_in_passes.h: passes merge groups of at most fan_in consecutive
// runs into one until fan_in are left, which the last merge reads), each
// group taken as fan_in runs, so an upper bound: the largest run a merge
// into a run reads (0 where none is needed), and the largest the last
// merge reads.
struct MergedSizes {
  uint64_t into_run = 0;
  uint64_t last = 0;
};
MergedSizes merged_sizes(const LinePlan& plan, uint64_t bytes, uint64_t chunks, uint64_t run) {
  const uint64_t fan_in = std::max<uint64_t>(plan.fan_in, 2);
  MergedSizes m;
  uint64_t runs = chunks, size = std::min(run, bytes);
  for (; runs > fan_in; runs = (runs + fan_in - 1) / fan_in, size = std::min(size * fan_in, bytes)) m.into_run = size;
  m.last = size;
  return m;
}

}  // namespace

RunsRoom line_runs_room(const LinePlan& plan, uint64_t bytes, uint64_t inputs, uint64_t line_length) {
  RunsRoom r;
  if (bytes == 0) return r;
  r.bytes = bytes + inputs;  // a terminator may be added to each input's last line
  const uint64_t streams = std::max<uint64_t>(plan.spill_streams, 1);
  // Known lines: the merges as they will go, unless runs wait to be merged
  // early (more than the descriptors hold). Else the worst case: lines of
  // a byte, and any merge's run as large as all of them.
  if (line_length > 0) {
    const uint64_t run = chunk_text(plan, line_length);
    const uint64_t chunks = (r.bytes + run - 1) / run;
    if (chunks * streams <= plan.waiting_files) {
      r.files = chunks * streams + 1;
      const MergedSizes sizes = merged_sizes(plan, r.bytes, chunks, run);
      r.merged_into_runs = chunks > plan.fan_in;
      r.largest_file = std::max(sizes.last, std::min(r.bytes, plan.chunk_bytes));
      r.largest_merged_into_run = sizes.into_run;
      r.merge_sources = std::min(chunks, plan.fan_in);
      return r;
    }
  }
  const uint64_t chunks = 2 * (r.bytes / (plan.max_line + 1)) + r.bytes / std::max<uint64_t>(plan.chunk_lines, 1) + 2;
  r.files = std::min(chunks * streams, plan.waiting_files + streams) + 1;
  r.merged_into_runs = chunks >= plan.fan_in;
  r.largest_file = r.merged_into_runs ? r.bytes : std::min(r.bytes, plan.chunk_bytes);
  r.merge_sources = std::min(chunks, plan.fan_in);
  return r;
}

}  // namespace gsort
