#include "src/cli/help_text.h"

#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/value_semantic.hpp>

#include <set>
#include <sstream>
#include <vector>

namespace po = boost::program_options;

namespace gsort {
namespace {

constexpr size_t kDescriptionColumn = 30;
constexpr size_t kWidth = 79;

// A name with no option behind it is passed over.
struct Group {
  const char* title;
  std::vector<std::string> options;  // long names, or "-C" for a short-only option
};

const Group kGroups[] = {
    {"Input and keys", {"record-size", "format", "key", "reverse", "unique", "stable", "check", "-C", "merge"}},
    {"Text lines (the default)", {"field-separator", "numeric-sort", "ignore-case", "ignore-leading-blanks", "zero-terminated"}},
    {"Memory and temporary files", {"memory", "temporary-directory", "batch-size", "compress-temp", "spill-streams", "page-cache"}},
    {"Backends", {"backend", "algorithm", "device", "gpu-memory", "parallel", "exchange"}},
    {"Output", {"output", "compress-output", "output-parts", "to-terminal", "verify", "no-verify", "no-space-check", "fsync"}},
    {"Reporting", {"verbose", "progress", "no-progress", "stats", "trace", "help", "version"}},
};

const char* const kIntro =
    "Usage: gsort [OPTION]... [INPUT]...\n"
    "Sort text lines (the default), byte for byte as LC_ALL=C sort does, or files\n"
    "of fixed-size binary records (--record-size, --format) by a key inside each\n"
    "record, using the GPU when one is present. INPUT is a file or - for standard\n"
    "input (the default); several inputs are sorted together.\n\n"
    "Lines are compared in the C locale's order: bytes as they are (\\r, NUL and\n"
    "invalid UTF-8 included); a last line without its newline gets one.\n"
    "Records sort stably: records with equal keys keep their input order, always.\n"
    "Floats sort in IEEE total order: -NaN < -inf < ... < -0.0 < +0.0 < ... < +NaN.\n"
    "An option given twice takes its last value; -k adds a key, -o names one file.\n";

const char* const kExamples =
    "Examples:\n"
    "  producer | gsort -t, -k2,2n -k1,1 | consumer\n"
    "      CSV lines by the number in field 2, then by field 1, as sort would\n"
    "  gsort --record-size 64 -k 8:u64 -k 0:4:desc in.bin -o out.bin\n"
    "      64-byte records by the unsigned 64-bit number at offset 8, then by\n"
    "      bytes 0-3, descending\n"
    "  producer | gsort --format gensort -S 4G -T /scratch > sorted.bin\n"
    "      Sort Benchmark records from a pipe, in 4 GiB, spilling to /scratch\n"
    "  gsort -c --format gensort sorted.bin\n"
    "      exit 1 and name the first record out of order, if any\n";

const char* const kExitStatus = "Exit status: 0 success, 1 --check found the input out of order, 2 any error.\n";

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
  std::string name = v.name();  // "FILE", or "[=LEVEL(=1)]" for an optional value
  if (v.min_tokens() == 0) {
    name = name.substr(name.rfind('=', name.find('(')) + 1);
    name = name.substr(0, name.find_first_of("(]"));
    return "[=" + name + "]";
  }
  return "=" + name;
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

std::string format_help(const po::options_description& options) {
  std::ostringstream out;
  out << kIntro;
  std::set<std::string> listed;
  const auto write_group = [&](const char* title, const std::vector<std::string>& keys) {
    out << '\n' << title << ":\n";
    for (const std::string& key : keys) {
      for (const auto& d : options.options()) {
        if (key_of(*d) != key) continue;
        write_description(out, names_of(*d), d->description());
        listed.insert(key);
      }
    }
  };
  for (const Group& g : kGroups) write_group(g.title, g.options);
  std::vector<std::string> others;
  for (const auto& d : options.options()) {
    if (!listed.count(key_of(*d))) others.push_back(key_of(*d));
  }
  if (!others.empty()) write_group("Other options", others);
  out << '\n' << kExamples << '\n' << kExitStatus;
  return out.str();
}

}  // namespace gsort
