#include "src/cli/argmatch.h"

#include <cstdio>

namespace gsort {
namespace {

// `text` between single quotes as sort's messages quote an argument in the
// C locale: control bytes, bytes past 0x7E, \ and ' escaped C's way.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const unsigned char c : text) {
    static const char kLetters[] = "\a\b\f\n\r\t\v";
    static const char kNames[] = "abfnrtv";
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c != 0 && std::string(kLetters).find(static_cast<char>(c)) != std::string::npos) {
      out += '\\';
      out += kNames[std::string(kLetters).find(static_cast<char>(c))];
    } else if (c < 0x20 || c > 0x7E) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      out += octal;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

// "Valid arguments are:" and the words, those of one value on one line.
std::string valid_words(const ArgumentWords& words) {
  std::string out = "Valid arguments are:";
  for (size_t i = 0; i < words.size(); ++i) {
    const bool same_as_before = i > 0 && words[i].second == words[i - 1].second;
    out += same_as_before ? ", " : "\n  - ";
    out += quoted(words[i].first);
  }
  return out;
}

}  // namespace

int argmatch(const std::string& option, const std::string& given, const ArgumentWords& words) {
  const std::pair<const char*, int>* found = nullptr;
  bool ambiguous = false;
  for (const auto& word : words) {
    const std::string name = word.first;
    if (name == given) return word.second;
    if (name.compare(0, given.size(), given) != 0) continue;
    ambiguous |= found != nullptr && found->second != word.second;
    if (!found) found = &word;
  }
  if (found && !ambiguous) return found->second;
  // main prints "gsort: " before the first line.
  throw InvalidArgumentWord(std::string(ambiguous ? "ambiguous" : "invalid") + " argument " + quoted(given) +
                            " for '" + option + "'\n" + valid_words(words) +
                            "\nTry 'gsort --help' for more information.");
}

}  // namespace gsort
