// Whether a sort's destination is written through a mapping, for the
// record pipeline and the line pipeline alike, and how that is reported.
// A mapping writes a new regular file of known size, unencoded, whose
// bytes the page cache takes at memory speed (dirty mapped pages count
// against a memory cgroup as written ones do; where they do not fit, the
// paced stream keeps the cache clean).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"
#include "src/core/log.h"
#include "src/output/output_blocks.h"
#include "src/pipeline/room_check.h"
#include "src/report/sort_report.h"

namespace gsort {

// Why the destination is not mapped (empty: it may be). Standard output
// may be where it is a regular file ending at its offset and no input is
// that file. input_bytes: the inputs' size where known (0: unknown);
// writeback_paced: the plan paces what is written.
std::string mapping_refusal(const OutputTarget& target, const std::vector<std::string>& inputs, bool encoded,
                            bool writeback_paced, uint64_t input_bytes);

// The room the destination needs, for the room check: `bytes` at most, where
// known (0: unknown) and not encoded (an encoder's output has a size of its own).
OutputRoom destination_room(OutputTarget& target, bool encoded, uint64_t bytes, const std::string& refusal);

// Lets the destination's blocks be the file itself, mapped (in blocks, or
// whole for writers that fill it in any order), while the room check allows.
void allow_mapped_blocks(OutputBlocks& blocks, MappedDestination& mapped, const RoomCheck& room);

// Why the destination, if it went as a stream, was not mapped: the
// mapping's refusal, else the room check's, else the disk's answer to the
// reservation (empty: none of them).
std::string stream_reason(const std::string& refusal, const RoomCheck& room, const MappedDestination& mapped);

// The way the destination was written, in the report and under -v
// (threads: how many filled a mapping).
void report_output_way(OutputWay way, const std::string& refusal, unsigned threads, const Log& log,
                       SortReport& report);

}  // namespace gsort
