// The values of text lines' options (the default mode: no --record-size,
// no --format) checked and put into the SortConfig: GNU sort's -t -b -d -f
// -g -h -i -M -n -R -V -z -s, --random-source and -k
// POS1[,POS2].
#pragma once

#include <string>
#include <vector>

#include "src/cli/option_table.h"
#include "src/config/sort_config.h"

namespace gsort {

// -d -g -i -M -R -V into the line options.
void set_orderings(const RawLineOptions& o, LineOptions& l);
// Line mode: UsageError in GNU sort's words ("options '-hn' are
// incompatible") when the global ordering options exclude each other and
// a key takes them (a -k without OPTS, or no -k).
void refuse_incompatible_gnu_orderings(const RawLineOptions& o, const std::vector<std::string>& keys);
// Line mode: c.lines from the options, -k as GNU keys (keys), -s (stable).
void set_line_options(const RawLineOptions& o, const std::vector<std::string>& keys, bool stable, SortConfig& c);
// Record mode: UsageError for an option that only lines take.
void refuse_line_options_for_records(const RawLineOptions& o);
// The message for a -k that is not gsort's record key in record mode.
std::string gnu_key_in_record_mode(const std::string& spec);

}  // namespace gsort
