// --output-parts: the output is a directory of part files, part-00000,
// part-00001, ... (one per rank), whose concatenation in name order is the
// sorted output.
#pragma once

#include <string>

namespace gsort {

// DIR/part-NNNNN (five digits, more past 99999).
std::string part_file_name(const std::string& directory, int index);

// Creates the directory when it is missing (its parent must exist); throws
// IoError when it cannot, or when the name is something else than a
// directory.
void make_output_directory(const std::string& directory);

// Removes part-NNNNN for NNNNN = first, first+1, ... as long as they exist:
// parts a run with more ranks left, which would otherwise join the
// concatenation.
void remove_parts_from(const std::string& directory, int first);

// One process with --output-parts: makes the directory, removes stale
// parts past part-00000, and returns DIR/part-00000 to write.
std::string prepare_single_part(const std::string& directory);

}  // namespace gsort
