#include "src/cli/help_page.h"

#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/value_semantic.hpp>

#include <set>
#include <sstream>

namespace po = boost::program_options;

namespace gsort {
namespace {

constexpr size_t kDescriptionColumn = 30;
constexpr size_t kWidth = 79;

// "-o" for an option with a short name, "" otherwise.
std::string short_name(const po::option_description& d) {
  const std::string s = d.canonical_display_name(po::command_line_style::allow_dash_for_short);
  return s.size() == 2 && s[0] == '-' ? s : "";
}

std::string key_of(const po::option_description& d) { return d.long_name().empty() ? short_name(d) : d.long_name(); }

// "=FILE", "[=LEVEL]" (an optional value) or "" (a switch).
std::string value_part(const po::option_description& d) {
  const po::value_semantic& v = *d.semantic();
  if (v.max_tokens() == 0) return "";
  std::string name = v.name();  // "FILE", "S (=1)" with a default, or "[=LEVEL(=1)]" for an optional value
  if (v.min_tokens() > 0) return "=" + name.substr(0, name.find(" ("));
  name = name.substr(name.rfind('=', name.find('(')) + 1);
  name = name.substr(0, name.find_first_of("(]"));
  return "[=" + name + "]";
}

// "  -o, --output=FILE", "      --record-size=N", "  -C".
std::string names_of(const po::option_description& d) {
  const std::string s = short_name(d);
  if (d.long_name().empty()) return "  " + s;
  return "  " + (s.empty() ? std::string("    ") : s + ", ") + "--" + d.long_name() + value_part(d);
}

// The description's words, wrapped to kWidth, starting at kDescriptionColumn.
void write_description(std::ostringstream& out, const std::string& names, const std::string& text) {
  out << names;
  size_t column = names.size();
  if (column + 2 > kDescriptionColumn) {
    out << '\n';
    column = 0;
  }
  std::istringstream words(text);
  bool line_start = true;
  for (std::string word; words >> word;) {
    if (!line_start && column + 1 + word.size() > kWidth) {
      out << '\n';
      column = 0;
      line_start = true;
    }
    if (line_start) {
      out << std::string(kDescriptionColumn - column, ' ');
      column = kDescriptionColumn;
    } else {
      out << ' ';
      ++column;
    }
    out << word;
    column += word.size();
    line_start = false;
  }
  out << '\n';
}

}  // namespace

std::string format_help_page(const po::options_description& options, const HelpPage& page) {
  std::ostringstream out;
  out << page.intro;
  std::set<std::string> listed;
  const auto write_group = [&](const std::string& title, const std::vector<std::string>& keys) {
    out << '\n' << title << ":\n";
    for (const std::string& key : keys) {
      for (const auto& d : options.options()) {
        if (key_of(*d) != key) continue;
        write_description(out, names_of(*d), d->description());
        listed.insert(key);
      }
    }
  };
  for (const HelpGroup& g : page.groups) write_group(g.title, g.options);
  std::vector<std::string> others;
  for (const auto& d : options.options()) {
    if (!listed.count(key_of(*d))) others.push_back(key_of(*d));
  }
  if (!others.empty()) write_group("Other options", others);
  if (!page.trailer.empty()) out << '\n' << page.trailer;
  return out.str();
}

}  // namespace gsort
