// The bytes a sort holds at its peak on the file systems it writes, by the
// model of room_check.h: plain sums, for the check and its tests.
#pragma once

#include <cstdint>

namespace gsort {

// The runs a sort writes plain on -T.
struct RunsRoom {
  uint64_t bytes = 0;             // what they hold in all, headers aside (0: no runs)
  uint64_t files = 0;             // the most run files on disk at once
  uint64_t largest_file = 0;      // the most bytes one run file holds, header aside
  // The most bytes a run read by a merge into a run holds (0: largest_file):
  // where such merges read only the smaller runs, before the last merge.
  uint64_t largest_merged_into_run = 0;
  uint64_t merge_sources = 0;     // the most sources one merge reads
  bool merged_into_runs = false;  // some merges write runs
};

struct RoomPeaks {
  uint64_t runs = 0;    // on -T alone: the runs, and what a merge into a run holds read
  uint64_t output = 0;  // on the output's file system alone
  uint64_t mapped = 0;  // one file system for both, the output reserved whole
  uint64_t stream = 0;  // one file system for both, the output grown as a stream
};

// The runs --merge writes where more inputs (`inputs`, `bytes` in all) wait
// than one merge takes (fan_in): merged early into runs as they are opened,
// at most max_open_runs of them waiting, each run as large as the whole;
// none otherwise. For both units.
RunsRoom merged_inputs_room(uint64_t inputs, uint64_t bytes, uint64_t fan_in, uint64_t max_open_runs);

// output_bytes: the output's (0: unknown or none). temp_block and
// output_block: the file systems' blocks (one value where they are one).
// punches: -T's file system punches holes.
RoomPeaks room_peaks(const RunsRoom& runs, uint64_t output_bytes, uint64_t temp_block, uint64_t output_block,
                     bool punches);

}  // namespace gsort
