// The command line's options: the table Boost.Program_options parses into
// RawOptions (the values as given, checked and converted by
// option_values.h), and --help lists (help_text.h).
#pragma once

#include <boost/program_options/options_description.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gsort {

// The options of text lines (the default mode) as given: GNU sort's -t
// -n -h -f -b -z, and GNU sort's options gsort refuses (parsed only to be
// refused, each naming the closest one it offers; never ignored).
struct RawLineOptions {
  std::string separator;
  bool separator_given = false;
  bool numeric = false, human_numeric = false, fold = false, ignore_blanks = false, zero_terminated = false;
  bool general_numeric = false, month = false, version_sort = false, random = false;
  bool dictionary = false, nonprinting = false;
  std::string random_source;
  // sort's interface beside the orderings: --debug, --files0-from,
  // --compress-program, and the obsolete +POS1 -POS2 keys (as the
  // key_index-th -k, with --debug's note).
  bool debug = false;
  std::string files0_from, compress_program;
  bool files0_from_given = false, compress_program_given = false;
  std::vector<std::pair<size_t, std::string>> obsolete_keys;
};

// The options as given, before they are checked.
struct RawOptions {
  std::vector<std::string> inputs;
  std::string output = "-";
  long long record_size = 0;  // signed, so that "-4" is rejected as negative
  std::vector<std::string> keys;
  std::string format;
  bool reverse = false, unique = false, check = false, check_quiet = false, merge = false;
  bool stable = false;  // -s: lines without the last-resort comparison; records are always stable
  bool to_terminal = false;  // --to-terminal
  std::string memory;
  std::string temp_dir;
  std::string parallel;  // read as sort reads it (sort_counts.h)
  bool parallel_given = false;
  std::string batch_size;  // likewise
  bool batch_size_given = false;
  bool verbose = false;
  std::string backend = "auto";
  std::string algorithm = "auto";
  std::string exchange = "auto";
  int device = 0;
  std::string gpu_memory;
  bool help = false, version = false;
  bool record_size_given = false, output_given = false, memory_given = false;
  bool format_given = false, gpu_memory_given = false;
  // Optional-value options: empty when absent, kImplicit when given bare.
  std::string compress_temp, compress_output, decompress;
  long long spill_streams = 0;  // signed, so that "-1" is rejected
  std::string page_cache = "drop";
  bool spill_streams_given = false;
  bool verify = false, no_verify = false, fsync = false;
  bool no_space_check = false;
  bool progress = false, no_progress = false;
  std::string stats;
  std::string trace;
  bool trace_given = false;
  bool stats_given = false, compress_temp_given = false, compress_output_given = false;
  bool output_parts = false;
  RawLineOptions lines;
};

// The value of an option with an optional value given bare
// (--compress-temp, --compress-output).
constexpr const char* kImplicit = "default";

// The options that --help shows, writing into `o` when parsed.
boost::program_options::options_description visible_options(RawOptions& o);

}  // namespace gsort
