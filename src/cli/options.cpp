#include "src/cli/options.h"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "src/cli/build_info.h"
#include "src/cli/debug_notes.h"
#include "src/cli/gnu_arguments.h"
#include "src/cli/help_text.h"
#include "src/cli/line_values.h"
#include "src/cli/option_table.h"
#include "src/cli/option_values.h"
#include "src/cli/random_source.h"
#include "src/cli/repeated_options.h"
#include "src/core/errors.h"

namespace po = boost::program_options;

namespace gsort {
namespace {

// --help, --version: a failed write (> /dev/full) is an error, as in GNU
// tools, not a silent exit 0.
void print_to_stdout(const std::string& text) {
  errno = 0;
  const bool ok = std::fputs(text.c_str(), stdout) >= 0 && std::fflush(stdout) == 0;
  if (!ok) throw IoError("cannot write " + describe_errno("standard output", errno ? errno : EIO));
}

// Boost.Program_options builds its error messages by replacing %value%,
// %option% and the like with the user's words, again and again while any
// is found: an argument that itself holds one (found by options_fuzz) made
// that loop forever. Such an argument is refused before Boost sees it.
void refuse_message_placeholders(int argc, const char* const* argv) {
  static const char* const kPlaceholders[] = {"%value%", "%option%", "%canonical_option%", "%original_token%",
                                              "%prefix_option%"};
  for (int i = 1; i < argc; ++i) {
    for (const char* p : kPlaceholders) {
      if (std::strstr(argv[i], p) != nullptr) {
        throw UsageError(std::string("argument '") + argv[i] + "' contains " + p + ", which gsort cannot take");
      }
    }
  }
}

// GNU sort refuses -t given twice with different separators ("incompatible
// tabs"); so does gsort (other options given twice take the last value).
void refuse_incompatible_tabs(const std::vector<po::option>& parsed) {
  const std::vector<std::string>* first = nullptr;
  for (const po::option& o : parsed) {
    if (o.string_key != "field-separator") continue;
    if (first && o.value != *first) throw UsageError("incompatible tabs");
    first = &o.value;
  }
}

// Which options were given, where their values cannot tell.
void note_given(const po::variables_map& vm, RawOptions& o) {
  o.record_size_given = vm.count("record-size") > 0;
  o.format_given = vm.count("format") > 0;
  o.gpu_memory_given = vm.count("gpu-memory") > 0;
  o.batch_size_given = vm.count("batch-size") > 0;
  o.stats_given = vm.count("stats") > 0;
  o.trace_given = vm.count("trace") > 0;
  o.output_given = vm.count("output") > 0;
  o.memory_given = vm.count("memory") > 0;
  o.parallel_given = vm.count("parallel") > 0;
  o.compress_temp_given = vm.count("compress-temp") > 0;
  o.spill_streams_given = vm.count("spill-streams") > 0;
  o.compress_output_given = vm.count("compress-output") > 0;
  o.lines.separator_given = vm.count("field-separator") > 0;
  o.lines.files0_from_given = vm.count("files0-from") > 0;
  o.lines.compress_program_given = vm.count("compress-program") > 0;
}

}  // namespace

std::string help_text() {
  RawOptions o;
  return format_help(visible_options(o));
}

ParsedCommand parse_command_line(int argc, const char* const* argv, unsigned ranks_on_host) {
  refuse_message_placeholders(argc, argv);
  RawOptions o;
  po::options_description all = visible_options(o);
  all.add_options()("input", po::value(&o.inputs)->composing(), "");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  try {
    // GNU manners: an unambiguous prefix of a long option names it (--rev);
    // an ambiguous one is refused naming its matches. Guessing applies to
    // long names only, and the positional inputs have none to guess.
    const int style = po::command_line_style::default_style;
    const bool posixly_correct = std::getenv("POSIXLY_CORRECT") != nullptr;
    GnuArguments words = gnu_arguments(argc, argv, all, posixly_correct);
    for (const ObsoleteKeyNote& k : words.obsolete_keys) o.lines.obsolete_keys.emplace_back(k.key_index, k.warning);
    po::parsed_options parsed = po::command_line_parser(words.words)
                                    .options(all)
                                    .positional(positional)
                                    .style(style)
                                    .run();
    refuse_incompatible_tabs(parsed.options);
    refuse_multiple_random_sources(parsed.options);
    // The inputs' hidden option takes positional arguments only: a prefix
    // guessed into it (--in FILE) is no option of gsort's.
    for (const po::option& opt : parsed.options) {
      if (opt.string_key == "input" && opt.position_key < 0 && !opt.original_tokens.empty()) {
        throw po::unknown_option(opt.original_tokens.front());
      }
    }
    keep_last_occurrences(parsed.options, {"key", "input"});
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (try 'gsort --help')");
  }
  note_given(vm, o);
  ParsedCommand cmd;
  if (o.help || o.version) {
    print_to_stdout(o.help ? help_text() : std::string("gsort ") + GSORT_VERSION + "\n" + build_info_text());
    cmd.done = true;
    return cmd;
  }
  cmd.config = to_config(o, ranks_on_host);
  if (cmd.config.lines.debug) cmd.notes = debug_notes(o, cmd.config.lines);
  return cmd;
}

}  // namespace gsort
