// How an input is read: decoded in the format its name's suffix names
// (.gz .bz2 .xz .zst and their aliases), else, where the run asks for it
// (--decompress: InputDecoding::kSniff), in the format its first bytes'
// magic names, else as it is. The run's choice is set once, before any
// input is opened, for the process (the library's run_config sets it from
// the SortConfig).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/compression_format.h"

namespace gsort {

void set_input_decoding(InputDecoding decoding);
InputDecoding input_decoding();

// The format of the input `name` ("-" for standard input) whose first
// bytes are bytes[0, size).
CompressionFormat input_format(const std::string& name, const uint8_t* bytes, size_t size);

}  // namespace gsort
