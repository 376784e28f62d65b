// -R's seed, as GNU sort takes it: the first 16 bytes of --random-source
// FILE (GNU sort's words when it cannot: "open failed: FILE: ...", "'FILE':
// end of file"), or, without one, 16 bytes from the system's random source.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options/option.hpp>

namespace gsort {

// Throws IoError when FILE cannot give 16 bytes.
std::array<uint8_t, 16> random_seed(const std::string& random_source);

// GNU sort refuses --random-source given twice with different files:
// "multiple random sources specified".
void refuse_multiple_random_sources(const std::vector<boost::program_options::option>& parsed);

}  // namespace gsort
