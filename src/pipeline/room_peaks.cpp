#include "src/pipeline/room_peaks.h"

#include <algorithm>

#include "io/run/run_file.h"

namespace gsort {
namespace {

uint64_t round_up(uint64_t bytes, uint64_t block) {
  return block == 0 ? bytes : (bytes + block - 1) / block * block;
}

}  // namespace

RoomPeaks room_peaks(const RunsRoom& runs, uint64_t output_bytes, uint64_t temp_block, uint64_t output_block,
                     bool punches) {
  RoomPeaks p;
  p.output = round_up(output_bytes, output_block);
  const uint64_t per_file = sizeof(RunHeader) + temp_block;
  const uint64_t held = runs.bytes == 0 ? 0 : runs.bytes + runs.files * per_file;
  // What one source of a merge may hold read but not yet freed: of any
  // merge (the last one too), and of a merge into a run.
  const auto read_not_freed_of = [&](uint64_t largest) {
    uint64_t per_source = largest + per_file;
    if (punches) per_source = std::min(per_source, kRunMostUnreleased);
    return std::min(held, runs.merge_sources * per_source);
  };
  const uint64_t read_not_freed = read_not_freed_of(runs.largest_file);
  const uint64_t into_run = runs.largest_merged_into_run != 0 ? runs.largest_merged_into_run : runs.largest_file;
  p.runs = held + (runs.merged_into_runs ? read_not_freed_of(into_run) : 0);
  p.mapped = std::max(p.runs, held + p.output);
  // The stream grows as the runs are freed; past the runs' bytes (the
  // inputs of -m that no run holds), it grows on its own.
  const uint64_t beyond_runs = output_bytes > runs.bytes ? output_bytes - runs.bytes : 0;
  p.stream = std::max(p.runs, held + read_not_freed + round_up(beyond_runs, output_block) + output_block);
  if (runs.bytes == 0) p.stream = p.output;
  return p;
}

RunsRoom merged_inputs_room(uint64_t inputs, uint64_t bytes, uint64_t fan_in, uint64_t max_open_runs) {
  if (inputs <= fan_in || bytes == 0) return RunsRoom{};
  RunsRoom r;
  r.bytes = bytes;
  r.files = std::min<uint64_t>(inputs, max_open_runs + fan_in) + 1;
  r.largest_file = bytes;
  r.merge_sources = fan_in;
  r.merged_into_runs = true;
  return r;
}

}  // namespace gsort
