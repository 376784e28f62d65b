// libFuzzer target: the whole command line (parse_command_line). The input
// is split on NUL bytes into argv[1..]. A command line is a config, --help or
// --version (printed to stdout, which is sent to /dev/null), a UsageError,
// or another of gsort's typed errors where an option names a file the
// parser reads (--files0-from, --random-source: an IoError, exit 2 as for
// sort); nothing may exit the process or throw anything else.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/cli/options.h"
#include "src/core/errors.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // --help would print a page per input.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"gsort"};
  std::string arg;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(arg);
      arg.clear();
    } else {
      arg.push_back(static_cast<char>(data[i]));
    }
  }
  if (!arg.empty()) args.push_back(arg);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  try {
    (void)gsort::parse_command_line(static_cast<int>(args.size()), argv.data());
  } catch (const gsort::Error&) {  // UsageError among them
  }
  return 0;
}
