// Sorting records a caller has already put in memory: the in-memory path
// of external_sort.h without its reading, for callers that fill the
// backend's chunk buffer themselves (the distributed sort lands the records
// it receives there). The output is written as the in-memory path writes
// it (gather, -u, write-behind): committed to a file, or handed to the
// caller's sink.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "io/output/write_behind.h"
#include "src/output/final_output.h"
#include "src/pipeline/external_sort.h"

namespace gsort {

struct SortedBufferOutput {
  // Where the sorted records go, in order: the blocks `map` gives (a mapped
  // range of an output, filled by all threads), or where it gives none,
  // `sink`; with neither, the file `path`, committed when all is written
  // (through a mapping where its file system can reserve one).
  FinalOutput::MapRange map;
  WriteBehind::Sink sink;
  std::string path;
  // Called, when there are records, with the first and the last of the
  // sorted order before any is written (-u does not change them).
  std::function<void(const uint8_t* first, const uint8_t* last)> ends;
};

// `records`: `count` records in a buffer from ctx.backend.allocate_host
// (count below 2^32). No --verify and no --compress-output here: callers
// that need them sort files with external_sort.
SortReport sort_filled_buffer(const SortContext& ctx, uint8_t* records, uint64_t count,
                              const SortedBufferOutput& out = {});

}  // namespace gsort
