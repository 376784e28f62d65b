// GNU sort's long options, and what each abbreviation of them means: as
// sort's getopt reads it, a prefix that names one of sort's long options
// names it, even where gsort's own options share the prefix (--st is
// --stable, not ambiguous with --stats; --bu=1M is --buffer-size=1M).
#pragma once

#include <string>

namespace gsort {

// The gsort option (its long name) that `name` ("st", "buffer-size": a
// long option's name without "--" and "=VALUE") stands for as one of GNU
// sort's long options or an unambiguous prefix of one; empty when it is
// none, or a prefix of several (the parser then reports it).
std::string gnu_long_option(const std::string& name);

// --check=WORD: "-C" for quiet and silent, "--check" for diagnose-first,
// each also by an unambiguous prefix, as sort's argmatch takes them.
// Throws InvalidArgumentWord (argmatch.h) in sort's words otherwise.
std::string check_option_for(const std::string& word);

// --sort=WORD: the option of its letter ("-n" for numeric), as sort takes
// it: --sort given twice is both letters (-R and -V: random, which wins
// over version; -n and -M: refused as incompatible), not the last.
// Throws InvalidArgumentWord otherwise.
std::string sort_option_for(const std::string& word);

}  // namespace gsort
