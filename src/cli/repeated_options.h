// An option given more than once, as GNU sort takes it: the last value
// wins (`alias gs='gsort -S 4G'; gs -S 8G` sorts with 8G), so that a later
// option overrides an earlier one instead of being an error.
//
//   lists (--key, the inputs)   every occurrence counts: repeated --key
//                               options make one composite key, as -k in
//                               GNU sort adds a key;
//   -o, --output                the same file again is fine, another file
//                               is an error, as in GNU sort (a result
//                               written to a file not meant would be lost);
//   --compress-program          the same program again is fine, another is
//                               an error, as in GNU sort;
//   a --no-X switch and --X     one setting: the later of the two wins;
//   anything else               the last occurrence wins.
#pragma once

#include <boost/program_options/option.hpp>

#include <string>
#include <vector>

namespace gsort {

// Removes the occurrences that a later one overrides from `parsed`, in
// place. `lists` are the keys (Boost's string_key) of the options that
// collect every value. Throws UsageError for two different -o files or
// compress programs.
void keep_last_occurrences(std::vector<boost::program_options::option>& parsed,
                           const std::vector<std::string>& lists);

}  // namespace gsort
