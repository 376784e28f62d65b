#include "tests/support/parse_args.h"

#include "src/core/errors.h"

namespace gsort_test {

gsort::ParsedCommand parse_args(const std::vector<const char*>& args) {
  std::vector<const char*> argv = {"gsort"};
  argv.insert(argv.end(), args.begin(), args.end());
  return gsort::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

gsort::SortConfig config_of(const std::vector<const char*>& args) { return parse_args(args).config; }

std::string usage_error_of(const std::vector<const char*>& args) {
  try {
    parse_args(args);
  } catch (const gsort::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace gsort_test
