#include "src/cli/files0_from.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// The whole content of `from` ("-": standard input).
std::string read_all(const std::string& from) {
  const bool standard = from == "-";
  std::unique_ptr<FILE, int (*)(FILE*)> opened(standard ? nullptr : std::fopen(from.c_str(), "rb"), &std::fclose);
  // An empty name shows as '' (as sort quotes it).
  if (!standard && !opened) throw IoError("open failed: " + describe_errno(from.empty() ? "''" : from, errno));
  FILE* f = standard ? stdin : opened.get();
  std::string text;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  if (std::ferror(f)) throw IoError("cannot read file names from '" + from + "': " + std::strerror(errno));
  return text;
}

}  // namespace

std::vector<std::string> read_files0_from(const std::string& from, const std::vector<std::string>& operands) {
  if (!operands.empty()) {
    throw UsageError("extra operand '" + operands.front() + "'\nfile operands cannot be combined with --files0-from");
  }
  const std::string text = read_all(from);
  std::vector<std::string> names;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\0', at);
    if (end == std::string::npos) end = text.size();
    names.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (names.empty()) throw UsageError("no input from '" + from + "'");
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "-") throw UsageError("when reading file names from stdin, no file name of '-' allowed");
    if (names[i].empty()) throw UsageError(from + ":" + std::to_string(i + 1) + ": invalid zero-length file name");
  }
  return names;
}

}  // namespace gsort
