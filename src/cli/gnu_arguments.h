// The command line's words made ready for Boost.Program_options, so that
// they mean what GNU's getopt makes of them:
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

#include <string>
#include <vector>

namespace gsort {

// argv[1, argc) rewritten; `all` is every option the parser knows.
std::vector<std::string> gnu_arguments(int argc, const char* const* argv,
                                       const boost::program_options::options_description& all, bool posixly_correct);

}  // namespace gsort
