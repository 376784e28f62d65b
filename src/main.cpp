// gsort: parse the command line, run it through the library's runner
// (src/api/run_config.h), and map errors to exit codes. This is the only
// place that decides the exit status; everything below throws.
#include <cstdio>
#include <new>
#include <string>

#include "io/output_parts.h"
#include "io/standard_streams.h"
#include "io/temp_registry.h"
#include "src/api/run_config.h"
#include "src/cli/distinct_files.h"
#include "src/cli/options.h"
#include "src/config/config_layout.h"
#include "src/core/errors.h"
#include "src/core/exit_codes.h"
#include "src/core/process_clock.h"
#include "src/keys/key_layout.h"
#include "src/lines/line_check.h"
#include "src/verify/disorder_text.h"

#ifdef GSORT_TEST_HOOKS
#include "tests/support/fault_hooks.h"
#endif
#ifdef GSORT_DISTRIBUTED_DRIVER
#include "src/distributed/distributed_launch.h"
#endif

namespace gsort {
namespace {

// A sort's exit status is 0 (failures throw); a check's says whether the
// input was in order, and -c says where it was not.
int run(const SortConfig& config) {
  const RunOutcome outcome = run_config(config);
  if (config.mode != Mode::kCheck) return kExitOk;
  const CheckResult& r = outcome.check;
  if (r.sorted) return kExitOk;
  if (!config.check_quiet && config.lines.enabled) {  // GNU sort's words: "-:2: disorder: b"
    std::fprintf(stderr, "gsort: %s\n", describe_line_disorder(config.inputs.front(), r).c_str());
  } else if (!config.check_quiet) {
    const std::string name = config.inputs.front() == "-" ? "standard input" : config.inputs.front();
    std::fprintf(stderr, "gsort: %s: %s\n", name.c_str(), describe_disorder(r, layout_of(config), config.unique).c_str());
  }
  return kExitDisorder;
}

}  // namespace
}  // namespace gsort

int main(int argc, char** argv) {
  gsort::process_seconds();  // starts the run's clock (src/core/process_clock.h)
  const gsort::StandardStreams streams = gsort::guard_standard_streams();
  gsort::install_cleanup_signal_handlers();
#ifdef GSORT_TEST_HOOKS
  gsort::test_hooks::install_fault_hooks();
#endif
#ifdef GSORT_DISTRIBUTED_DRIVER
  // Under mpirun with several ranks, the distributed sort takes over.
  gsort::DistributedLaunch mpi(&argc, &argv);
  if (mpi.several_ranks()) {
    return mpi.run([&]() -> std::optional<gsort::SortConfig> {
      gsort::ParsedCommand cmd = gsort::parse_command_line(argc, argv);
      if (!cmd.done && cmd.config.lines.enabled) {
        throw gsort::UsageError("mpirun -np N sorts records only: sort text lines with one gsort, without mpirun "
                                "(or give --record-size or --format for records)");
      }
      return cmd.done ? std::nullopt : std::optional<gsort::SortConfig>(cmd.config);
    });
  }
#endif
  try {
    gsort::ParsedCommand cmd = gsort::parse_command_line(argc, argv);
    if (cmd.done) return gsort::kExitOk;
    if (cmd.config.output_parts) cmd.config.output = gsort::prepare_single_part(cmd.config.output);
    if (streams.stdout_was_closed && cmd.config.output == "-" && cmd.config.mode != gsort::Mode::kCheck) {
      throw gsort::IoError("standard output is closed (give -o FILE)");
    }
    // As zstd does: records on a terminal are noise, and the "> FILE" was
    // most likely forgotten. -c and -C write nothing.
    if (streams.stdout_is_terminal && cmd.config.output == "-" && cmd.config.mode != gsort::Mode::kCheck &&
        !cmd.config.to_terminal && !cmd.config.lines.enabled) {
      throw gsort::UsageError("standard output is a terminal: give -o FILE, redirect it, or --to-terminal to write "
                              "the binary records there anyway");
    }
    // The guard put /dev/null there: reading it would sort nothing and succeed.
    for (const std::string& input : cmd.config.inputs) {
      if (streams.stdin_was_closed && input == "-") throw gsort::IoError("standard input is closed");
    }
    gsort::refuse_overlapping_files(cmd.config);
    return gsort::run(cmd.config);
  } catch (const gsort::Error& e) {
    std::fprintf(stderr, "gsort: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gsort: out of memory (try a smaller --memory)\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gsort: %s\n", e.what());
  }
  return gsort::kExitError;
}
