#include "src/api/options_config.h"

#include "src/cli/options.h"
#include "src/config/line_locale.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kCpu: return "cpu";
    case Backend::kGpu: return "gpu";
    case Backend::kHybrid: return "hybrid";
    case Backend::kAuto: break;
  }
  return "auto";
}

// An argument that names an input or output, or changes what is done: the
// call's own parameters say those.
bool reserved(const std::string& a) {
  static const char* const names[] = {"-o", "--output", "-m", "--merge", "-c", "-C", "--check",
                                      "-h", "--help", "--version", "--output-parts"};
  for (const char* n : names) {
    const std::string name(n);
    if (a == name || (name.size() > 2 && a.compare(0, name.size() + 1, name + "=") == 0)) return true;
  }
  // A long option's unambiguous prefix names it (--outp is --output).
  if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
    const std::string given = a.substr(0, a.find('='));
    for (const char* n : names) {
      const std::string name(n);
      if (name.size() > 2 && name.compare(0, given.size(), given) == 0) return true;
    }
  }
  // Bundled short options such as -ro or -uc: switches, perhaps ended by
  // one option that takes the rest as its value (-rS4G, -To).
  if (a.size() > 2 && a[0] == '-' && a[1] != '-') {
    for (size_t i = 1; i < a.size(); ++i) {
      if (std::string("omcCh").find(a[i]) != std::string::npos) return true;
      if (std::string("ruvs").find(a[i]) == std::string::npos) return false;
    }
  }
  return false;
}

}  // namespace

SortConfig config_from_options(const Options& options, Mode mode, const std::vector<std::string>& inputs,
                               const std::string& output) {
  for (const std::string& a : options.arguments) {
    if (a == "--") throw UsageError("Options::arguments: '--' ends the options; name inputs in the call instead");
    if (reserved(a)) throw UsageError("Options::arguments: " + a + " is said by the function called, not as an option");
  }
  std::vector<std::string> args{"gsort"};
  if (options.record_size != 0) args.insert(args.end(), {"--record-size", std::to_string(options.record_size)});
  for (const std::string& k : options.keys) args.insert(args.end(), {"--key", k});
  if (options.reverse) args.push_back("-r");
  if (options.unique) args.push_back("-u");
  args.insert(args.end(), {"--backend", backend_name(options.backend)});
  if (options.device != 0) args.insert(args.end(), {"--device", std::to_string(options.device)});
  if (options.memory_bytes != 0) args.insert(args.end(), {"-S", std::to_string(options.memory_bytes) + "b"});
  if (!options.temp_dir.empty()) args.insert(args.end(), {"-T", options.temp_dir});
  if (options.threads != 0) args.insert(args.end(), {"--parallel", std::to_string(options.threads)});
  if (options.verify) args.push_back("--verify");
  if (options.verbose) args.push_back("-v");
  args.push_back("--no-progress");  // unless the arguments ask for --progress: the later wins
  args.insert(args.end(), options.arguments.begin(), options.arguments.end());
  if (mode == Mode::kMerge) args.push_back("--merge");
  if (mode == Mode::kCheck) args.push_back("-C");  // the caller reports the disorder
  if (mode != Mode::kCheck) args.insert(args.end(), {"-o", output});
  args.push_back("--");
  args.insert(args.end(), inputs.begin(), inputs.end());

  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  const ParsedCommand cmd = parse_command_line(static_cast<int>(argv.size()), argv.data());
  if (cmd.done || cmd.config.inputs != inputs) {
    // Only an argument that is not an option (a file name) gets here.
    throw UsageError("Options::arguments: only options belong there; name inputs in the call");
  }
  SortConfig config = cmd.config;
  if (!options.locale.empty()) config.lines.locale = line_locale_named(options.locale);
  return config;
}

}  // namespace gsort
