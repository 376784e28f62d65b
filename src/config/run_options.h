// What a run of a SortConfig takes beside what the user asked for, decided
// by whoever runs it (main, the library, a distributed rank's local sort),
// never by parsing.
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

struct RunOptions {
  // The file the records are written to ("-": standard output): the
  // config's -o, or, for one process with --output-parts, the part it
  // writes in that directory (made ready by main).
  std::string output = "-";
  // The name messages give `output` where it is a descriptor's ("/dev/fd/N"
  // standing for the one output file a rank merges into); empty: itself.
  std::string output_shown_as;
  // One process with --output-parts: the directory, whose parts past
  // part-00000 go with the commit (io/output/output_parts.h's StaleParts).
  std::string parts_directory;
  // The inputs are temporary files read once and then deleted (a rank's
  // received records): each range is punched out of them once read
  // (InputSet::consume_as_read).
  bool consume_inputs = false;
  // A rank's range of the one output file that every rank fills: where
  // `bytes` is not 0, `output` is an existing regular file, and the sort
  // writes exactly `bytes` there from `offset`, never resizing, renaming
  // or cutting the file (other processes write the rest).
  struct Range {
    uint64_t offset = 0;
    uint64_t bytes = 0;
  } output_range;
};

}  // namespace gsort
