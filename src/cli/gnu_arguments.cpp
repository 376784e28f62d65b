#include "src/cli/gnu_arguments.h"

#include <boost/program_options/errors.hpp>
#include <boost/program_options/value_semantic.hpp>

#include "src/cli/option_table.h"
#include "src/core/errors.h"

namespace po = boost::program_options;

namespace gsort {
namespace {

// Whether an argument reads as a zstd level ("19", "-5").
bool looks_like_level(const std::string& a) {
  const size_t digits = !a.empty() && a[0] == '-' ? 1 : 0;
  return a.size() > digits && a.find_first_not_of("0123456789", digits) == std::string::npos;
}

// Whether the option that `name` names ("field-separator", a prefix of
// one, or "-t") needs a value. False for no option or an ambiguous prefix:
// the parser reports those.
bool takes_value(const po::options_description& all, const std::string& name) {
  try {
    const po::option_description* d = all.find_nothrow(name, true);
    return d && d->semantic()->min_tokens() > 0;
  } catch (const po::error&) {
    return false;
  }
}

// How many words the option word `a` takes, itself included: 2 when its
// value is the next word. In a cluster of short options (-nrk), the first
// that needs a value takes the rest of the word, or the next word.
size_t option_words(const po::options_description& all, const std::string& a) {
  if (a.rfind("--", 0) == 0) return a.find('=') == std::string::npos && takes_value(all, a.substr(2)) ? 2 : 1;
  for (size_t k = 1; k < a.size(); ++k) {
    if (takes_value(all, std::string("-") + a[k])) return k + 1 == a.size() ? 2 : 1;
  }
  return 1;
}

// The first word that is neither an option nor an option's value ("-"
// is an operand), or "--".
size_t first_operand(const std::vector<std::string>& args, const po::options_description& all) {
  size_t i = 0;
  while (i < args.size() && args[i] != "--" && args[i].size() > 1 && args[i][0] == '-') i += option_words(all, args[i]);
  return i;
}

// "--compress-temp" followed by `next`, as Boost should read it.
std::string with_explicit_level(const std::string& a, const std::string* next) {
  if (next && looks_like_level(*next)) {
    throw UsageError(a + " takes its level after '=': write " + a + "=" + *next + " (or ./" + *next +
                     " for an input file of that name)");
  }
  return a + "=" + kImplicit;
}

}  // namespace

std::vector<std::string> gnu_arguments(int argc, const char* const* argv, const po::options_description& all,
                                       bool posixly_correct) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (posixly_correct) {
    const size_t at = first_operand(args, all);
    if (at < args.size() && args[at] != "--") args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), "--");
  }
  std::vector<std::string> out;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_ended || a.rfind("--", 0) != 0) {
      out.push_back(a);
      continue;
    }
    if (a == "--") {
      options_ended = true;
      out.push_back(a);
    } else if (a == "--compress-temp" || a == "--compress-output") {
      out.push_back(with_explicit_level(a, i + 1 < args.size() ? &args[i + 1] : nullptr));
    } else if (a.find('=') == a.size() - 1 && takes_value(all, a.substr(2, a.size() - 3))) {
      out.push_back(a.substr(0, a.size() - 1));  // --NAME= : an empty value
      out.emplace_back();
    } else {
      out.push_back(a);
    }
  }
  return out;
}

}  // namespace gsort
