// The command line's options for text lines (the default mode: no
// --record-size, no --format): GNU sort's -t -n -f -b -z and -k
// POS1[,POS2], and GNU sort's options gsort does not offer, which are
// refused in one line naming the closest one it does (never ignored).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "src/config/sort_config.h"

namespace gsort {

struct RawLineOptions {
  std::string separator;
  bool separator_given = false;
  bool numeric = false, fold = false, ignore_blanks = false, zero_terminated = false;
  // Refused, each with its closest supported option.
  bool general_numeric = false, human_numeric = false, month = false, version_sort = false, random = false;
  bool dictionary = false, nonprinting = false, debug = false;
  std::string files0_from, random_source, sort_word, compress_program;
};

// -t -n -f -b -z, shown in --help.
void add_line_options(boost::program_options::options_description& d, RawLineOptions& o);
// GNU sort's options gsort refuses: parsed only to be refused.
void add_refused_gnu_options(boost::program_options::options_description& d, RawLineOptions& o);
// GNU sort refuses -t given twice with different separators ("incompatible
// tabs"); so does gsort (other options given twice take the last value).
void refuse_incompatible_tabs(const std::vector<boost::program_options::option>& parsed);
// Notes which value options were given (vm is the parse's).
void note_given(const boost::program_options::variables_map& vm, RawLineOptions& o);

// Throws UsageError for a refused option.
void refuse_unsupported_gnu_options(const RawLineOptions& o);
// Line mode: c.lines from the options, -k as GNU keys (keys), -s (stable).
void set_line_options(const RawLineOptions& o, const std::vector<std::string>& keys, bool stable, SortConfig& c);
// Record mode: UsageError for an option that only lines take.
void refuse_line_options_for_records(const RawLineOptions& o);
// The message for a -k that is not gsort's record key in record mode.
std::string gnu_key_in_record_mode(const std::string& spec);

}  // namespace gsort
