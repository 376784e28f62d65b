#include "src/cli/gnu_long_names.h"

#include <utility>
#include <vector>

#include "src/cli/argmatch.h"

namespace gsort {
namespace {

// GNU sort 9's long options, each with the gsort option it is.
const std::pair<const char*, const char*> kGnuLongOptions[] = {
    {"ignore-leading-blanks", "ignore-leading-blanks"},
    {"check", "check"},
    {"compress-program", "compress-program"},
    {"debug", "debug"},
    {"dictionary-order", "dictionary-order"},
    {"ignore-case", "ignore-case"},
    {"files0-from", "files0-from"},
    {"general-numeric-sort", "general-numeric-sort"},
    {"ignore-nonprinting", "ignore-nonprinting"},
    {"key", "key"},
    {"merge", "merge"},
    {"month-sort", "month-sort"},
    {"numeric-sort", "numeric-sort"},
    {"human-numeric-sort", "human-numeric-sort"},
    {"version-sort", "version-sort"},
    {"random-sort", "random-sort"},
    {"random-source", "random-source"},
    {"sort", "sort"},
    {"output", "output"},
    {"reverse", "reverse"},
    {"stable", "stable"},
    {"batch-size", "batch-size"},
    {"buffer-size", "memory"},
    {"field-separator", "field-separator"},
    {"temporary-directory", "temporary-directory"},
    {"unique", "unique"},
    {"zero-terminated", "zero-terminated"},
    {"parallel", "parallel"},
    {"help", "help"},
    {"version", "version"},
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

}  // namespace

std::string gnu_long_option(const std::string& name) {
  if (name.empty()) return "";
  for (const auto& [gnu, ours] : kGnuLongOptions) {
    if (name == gnu) return ours;  // an exact name wins over the longer ones it begins
  }
  const char* found = nullptr;
  for (const auto& [gnu, ours] : kGnuLongOptions) {
    if (starts_with(gnu, name)) {
      if (found) return "";  // ambiguous in sort too
      found = ours;
    }
  }
  return found ? found : "";
}

std::string check_option_for(const std::string& word) {
  // quiet and silent mean the same, so a prefix of both is no ambiguity.
  const ArgumentWords kWords = {{"quiet", 'C'}, {"silent", 'C'}, {"diagnose-first", 'c'}};
  return argmatch("--check", word, kWords) == 'C' ? "-C" : "--check";
}

std::string sort_option_for(const std::string& word) {
  const ArgumentWords kWords = {{"general-numeric", 'g'}, {"human-numeric", 'h'}, {"month", 'M'},
                                {"numeric", 'n'},         {"random", 'R'},        {"version", 'V'}};
  return std::string("-") + static_cast<char>(argmatch("--sort", word, kWords));
}

}  // namespace gsort
