// A program's --help in GNU's layout: its introduction, then its options in
// groups, each as "-o, --output=FILE" with its description wrapped beside
// it, then what follows the options (examples, exit status). gsort and
// gsort-gen both print theirs through it.
#pragma once

#include <boost/program_options/options_description.hpp>

#include <string>
#include <vector>

namespace gsort {

struct HelpGroup {
  std::string title;
  std::vector<std::string> options;  // long names, or "-C" for a short-only option; absent ones are passed over
};

struct HelpPage {
  std::string intro;  // the usage line and what the program does
  std::vector<HelpGroup> groups;
  std::string trailer;  // after the options
};

// The whole text of --help. An option that no group names is listed under
// "Other options" (tests check that none is).
std::string format_help_page(const boost::program_options::options_description& options, const HelpPage& page);

}  // namespace gsort
