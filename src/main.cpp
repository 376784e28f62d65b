// gsort: parse the command line, check it against the process's standard
// streams and files, run it through the library's runner
// (src/api/run_config.h) or, as one of several MPI ranks, the distributed
// sort, and map errors to exit codes. This is the only place that decides
// the exit status, for one process and for ranks; everything below throws.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/file/destination.h"
#include "io/file/standard_streams.h"
#include "io/output/output_parts.h"
#include "io/temp/temp_registry.h"
#include "src/api/run_config.h"
#include "src/cli/argmatch.h"
#include "src/cli/distinct_files.h"
#include "src/cli/options.h"
#include "src/config/config_layout.h"
#include "src/config/run_options.h"
#include "src/core/address_space.h"
#include "src/core/errors.h"
#include "src/core/exit_codes.h"
#include "src/core/failure_text.h"
#include "src/core/mpi_launcher.h"
#include "src/core/process_clock.h"
#include "src/core/process_exit.h"
#include "src/core/teardown_helper.h"
#include "src/keys/key_layout.h"
#include "src/verify/disorder_text.h"
#include "src/verify/line_check.h"

#ifdef GSORT_TEST_HOOKS
#include "tests/support/fault_hooks.h"
#endif
#ifdef GSORT_DISTRIBUTED_DRIVER
#include "src/distributed/distributed_launch.h"
#include "src/distributed/ranks/ranks_failed.h"
#endif

namespace gsort {
namespace {

void print_error(const std::string& line) { std::fprintf(stderr, "gsort: %s\n", line.c_str()); }

// Whether the records go to standard output: "-", or a name that stands
// for our descriptor 1 (/dev/stdout and the like, io/file/destination.h).
bool names_stdout(const std::string& output) {
  if (output == "-") return true;
  const DescriptorName named = descriptor_behind(output);
  return named.found && named.own && named.fd == 1;
}

// What main checks before any work, for one process and for every rank:
// standard streams the request cannot use (and, for ranks, files written
// beside the output that are also an input or the output; one process has
// run_config check those, as the library does). Returns where the records
// go: the config's -o, or, for one process with --output-parts, the part it
// writes there (ranks leave parts to the distributed sort).
RunOptions prepare_run(const SortConfig& config, const StandardStreams& streams, bool one_process) {
  RunOptions run = one_process ? one_process_run(config) : RunOptions{};
  if (!one_process) run.output = config.output;
  const bool writes_stdout = names_stdout(run.output) && config.mode != Mode::kCheck;
  if (streams.stdout_was_closed && writes_stdout) throw IoError("standard output is closed (give -o FILE)");
  // As zstd does: records on a terminal are noise, and the "> FILE" was
  // most likely forgotten. -c and -C write nothing. A rank cannot tell:
  // Open MPI gives every rank a pseudo-terminal for its standard output,
  // whatever mpirun's own is.
  if (one_process && streams.stdout_is_terminal && writes_stdout && !config.to_terminal && !config.lines.enabled) {
    throw UsageError("standard output is a terminal: give -o FILE, redirect it, or --to-terminal to write "
                     "the binary records there anyway");
  }
  // The guard put /dev/null there: reading it would sort nothing and succeed.
  for (const std::string& input : config.inputs) {
    if (streams.stdin_was_closed && input == "-") throw IoError("standard input is closed");
  }
  if (!one_process) refuse_overlapping_files(config, run.output);
  return run;
}

// A device start still running when the output was committed: kept, never
// destroyed (which would wait for it), until end_process ends the process.
void keep_until_exit(const std::shared_ptr<PendingStart>& pending) {
  static auto* kept = new std::vector<std::shared_ptr<PendingStart>>();  // reachable, never freed
  kept->push_back(pending);
}

// A check's exit status says whether the input was in order; -c says
// where it was not (`speak`: this process is the one to say it).
int check_exit(const SortConfig& config, const CheckResult& r, bool speak) {
  if (r.sorted) return kExitOk;
  if (!speak) return kExitDisorder;
  if (!config.check_quiet && config.lines.enabled) {  // GNU sort's words: "-:2: disorder: b"
    // The line as it is, NULs included, ended as lines end (-z: NUL), as sort writes it.
    const std::string line = "gsort: " + describe_line_disorder(config.inputs.front(), r) +
                             static_cast<char>(config.lines.zero_terminated ? '\0' : '\n');
    std::fwrite(line.data(), 1, line.size(), stderr);
  } else if (!config.check_quiet) {
    const std::string name = config.inputs.front() == "-" ? "standard input" : config.inputs.front();
    std::fprintf(stderr, "gsort: %s: %s\n", name.c_str(), describe_disorder(r, layout_of(config), config.unique).c_str());
  }
  return kExitDisorder;
}

// Whether the run may make a GPU context, whose teardown the exit would
// wait for (src/core/teardown_helper.h). Not under MPI, which a fork could
// upset, even as one process.
bool may_start_gpu(const SortConfig& config) {
#ifdef GSORT_DISTRIBUTED_DRIVER
  (void)config;
  return false;
#else
  return config.mode != Mode::kCheck && config.backend != BackendChoice::kCpu && gpu_device_files_present();
#endif
}

// A sort's exit status is 0 (failures throw); a check's, check_exit's.
int run(const SortConfig& config, const RunOptions& options) {
  const RunOutcome outcome = run_config(config, options);
  if (outcome.pending_start) keep_until_exit(outcome.pending_start);
  if (config.mode != Mode::kCheck) return kExitOk;
  return check_exit(config, outcome.check, true);
}

// One process.
int run_alone(int argc, char** argv, const StandardStreams& streams) {
  try {
    const ParsedCommand cmd = parse_command_line(argc, argv);
    if (cmd.done) return kExitOk;
    for (const std::string& note : cmd.notes) print_error(note);
    const RunOptions options = prepare_run(cmd.config, streams, true);
    if (may_start_gpu(cmd.config)) start_teardown_helper();  // before any thread
    return run(cmd.config, options);
  } catch (const InvalidArgumentWord& e) {
    print_error(e.what());
    return kExitBadWord;
  } catch (const std::exception& e) {
    print_error(failure_text(e));
  }
  return kExitError;
}

#ifndef GSORT_DISTRIBUTED_DRIVER
// A build without the distributed sort, started as one of several ranks,
// would sort the whole input once per rank, all into one output: refused,
// by every rank, the first saying why.
int refuse_ranks(const LaunchedRanks& ranks) {
  if (ranks.rank == 0) {
    print_error("this gsort runs as one process, and mpirun started " + std::to_string(ranks.size) +
                " of it: run gsort-mpi (the package gsort-mpi installs it as gsort), or run gsort once");
  }
  return kExitError;
}
#endif

#ifdef GSORT_DISTRIBUTED_DRIVER
// One of several ranks (mpirun -np N): parsed and checked as one process
// is, every rank alike; a failure anywhere makes every rank exit 2, with
// one line from the first rank that failed.
int run_as_rank(DistributedLaunch& mpi, int argc, char** argv, const StandardStreams& streams) {
  try {
    std::optional<SortConfig> config;  // none: --help or --version was printed
    mpi.agree_on([&] {
      const ParsedCommand cmd = parse_command_line(argc, argv, mpi.ranks_on_host());
      if (cmd.done) return;
      prepare_run(cmd.config, streams, false);
      config = cmd.config;
    });
    mpi.agree_on_printing(!config);
    if (config && config->mode == Mode::kCheck) return check_exit(*config, mpi.check(*config), mpi.rank() == 0);
    if (config) mpi.sort(*config);
    return kExitOk;
  } catch (const RanksFailed& e) {
    if (e.should_print()) print_error(e.what());
    return kExitError;
  } catch (const std::exception& e) {
    // Outside a collective step (a bug, or rank 0's --stats file after the
    // output is in place): the other ranks may be waiting in a collective,
    // so the job is ended. Temporary files are gone: the stack has unwound.
    print_error("rank " + std::to_string(mpi.rank()) + ": " + failure_text(e));
    mpi.abort(kExitError);
  }
}
#endif

}  // namespace
}  // namespace gsort

int main(int argc, char** argv) {
  gsort::process_seconds();  // starts the run's clock (src/core/process_clock.h)
  gsort::fit_threads_to_address_limits();  // before any thread starts
  const gsort::StandardStreams streams = gsort::guard_standard_streams();
  gsort::install_cleanup_signal_handlers();
#ifdef GSORT_TEST_HOOKS
  gsort::test_hooks::install_fault_hooks();
#endif
#ifdef GSORT_DISTRIBUTED_DRIVER
  int code = 0;
  {
    // Under mpirun with several ranks, the distributed sort takes over.
    gsort::DistributedLaunch mpi(&argc, &argv);
    if (mpi.several_ranks()) return gsort::run_as_rank(mpi, argc, argv, streams);
    code = gsort::run_alone(argc, argv, streams);
  }  // MPI is finalized before the process ends
  gsort::end_process(code);
#else
  if (const gsort::LaunchedRanks ranks = gsort::launched_ranks(); ranks.size > 1) return gsort::refuse_ranks(ranks);
  gsort::end_process(gsort::run_alone(argc, argv, streams));
#endif
}
