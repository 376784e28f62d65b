// gsort --help: the options in groups (input and keys; memory and temporary
// files; backends; output; reporting), each as "-o, --output=FILE" with its
// description wrapped beside it, then examples and the exit status.
#pragma once

#include <boost/program_options/options_description.hpp>

#include <string>

namespace gsort {

// The whole text of --help for the option table `options`. An option that
// no group names is listed under "Other options" (tests/unit check that
// none is).
std::string format_help(const boost::program_options::options_description& options);

}  // namespace gsort
