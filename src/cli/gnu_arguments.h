// The command line's words made ready for Boost.Program_options, so that
// they mean what GNU sort's getopt makes of them:
//  - a long option's name, or a prefix of it, that is one of sort's long
//    options means that one (gnu_long_names.h): --bu=1M is -S 1M, --st is
//    --stable, though gsort's own options share those prefixes;
//  - --check=quiet|silent is -C, --check=diagnose-first is -c;
//    --sort=WORD is its letter's option (--sort=numeric is -n), so that
//    --sort given twice is both letters, as in sort; a word argmatch
//    does not take is refused (argmatch.h: exit 1);
//  - every value of -S, --parallel and --batch-size is checked as it is
//    met, as sort checks them, though only the last is kept;
//  - -y (sort takes and ignores it, and the number after it) is dropped;
//  - sort's obsolete keys, +POS1 [-POS2], become -k keys (obsolete_keys.h);
//  - a bare optional-value option (--compress-temp, --compress-output)
//    must not take the next word (an input) as its value: it is given
//    "=default" (kImplicit); a level after a blank is refused, naming
//    the spelling with '=';
//  - "--NAME=" with nothing after the '=' is an empty value
//    (--field-separator= is an empty tab), where Boost refuses the form;
//  - with POSIXLY_CORRECT in the environment, options end at the first
//    operand (every later word is an input), as getopt stops there;
//    without it, options and inputs mix in any order.
#pragma once

#include <boost/program_options/options_description.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace gsort {

// An obsolete key, as the key_index-th -k (from 0), with --debug's note.
struct ObsoleteKeyNote {
  size_t key_index = 0;
  std::string warning;
};

struct GnuArguments {
  std::vector<std::string> words;
  std::vector<ObsoleteKeyNote> obsolete_keys;
};

// argv[1, argc) rewritten; `all` is every option the parser knows.
GnuArguments gnu_arguments(int argc, const char* const* argv, const boost::program_options::options_description& all,
                           bool posixly_correct);

}  // namespace gsort
