// gsort: parse the command line, run, and map errors to exit codes. This is
// the only place that decides the exit status; everything below throws.
#include <atomic>
#include <cstdio>
#include <new>
#include <string>

#include "src/chunk_sort/backend_factory.h"
#include "src/cli/options.h"
#include "src/core/errors.h"
#include "src/core/exit_codes.h"
#include "src/core/thread_pool.h"
#include "io/output_target.h"
#include "io/input_set.h"
#include "io/output_parts.h"
#include "io/standard_streams.h"
#include "io/temp_registry.h"
#include "src/pipeline/external_sort.h"
#include "src/report/progress.h"
#include "src/report/stats_json.h"
#include "src/verify/sorted_check.h"

#ifdef GSORT_TEST_HOOKS
#include "tests/support/fault_hooks.h"
#endif
#ifdef GSORT_DISTRIBUTED_DRIVER
#include "src/distributed/distributed_launch.h"
#endif

namespace gsort {
namespace {

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

void report_verbose(const Log& log, const SortReport& r, const SortBackend& backend, double total_s) {
  if (!log.verbose()) return;
  log.info("records: " + std::to_string(r.input_records) + " in, " + std::to_string(r.output_records) + " out");
  log.info("temp bytes written: " + std::to_string(r.temp_bytes));
  for (const auto& [name, seconds] : r.phases) log.info("phase " + name + ": " + format_seconds(seconds));
  const BackendTimings t = backend.timings();
  log.info("backend at the end: " + backend.describe());
  log.info("backend: extract " + format_seconds(t.extract_s) + ", sort " + format_seconds(t.sort_s) +
           ", merge " + format_seconds(t.merge_s) + ", copy in " + format_seconds(t.copy_in_s) + ", copy out " +
           format_seconds(t.copy_out_s) + ", gather " + format_seconds(t.gather_s));
  const double mb = static_cast<double>(r.input_bytes) / 1e6;
  char line[96];
  std::snprintf(line, sizeof line, "total: %.3f s (%.1f MB/s)", total_s, total_s > 0 ? mb / total_s : 0.0);
  log.info(line);
}

// --stats: into its file (made before the work began), or to stderr.
void write_stats(const std::string& json, OutputTarget* file) {
  if (file) {
    file->file().write_all(json.data(), json.size());
    file->commit();
  } else {
    std::fputs(json.c_str(), stderr);
  }
}

// -c / -C: exit 0 when sorted, 1 at the first disorder (reported unless -C).
// The progress line and --stats work as for a sort; -C shows no progress
// unless --progress asks.
int check(const SortConfig& config, const KeyLayout& layout, const Log& log, const Stopwatch& total,
          OutputTarget* stats_file) {
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  std::atomic<uint64_t> checked_bytes{0};
  CheckResult r;
  {
    const bool show = config.check_quiet ? config.progress == ProgressMode::kOn : ProgressMeter::wanted(config.progress);
    ProgressMeter meter(show);
    meter.phase("checking", size_known ? input_bytes : 0, &checked_bytes);
    r = check_sorted(config.inputs.front(), layout, config.unique, 16u << 20, &checked_bytes);
  }
  const double total_s = total.seconds();
  log.info("checked " + std::to_string(r.records) + " records in " + format_seconds(total_s) +
           (r.sorted ? ": sorted" : ": disorder at record " + std::to_string(r.bad_record)));
  if (!r.sorted && !config.check_quiet) {
    const std::string name = config.inputs.front() == "-" ? "standard input" : config.inputs.front();
    std::fprintf(stderr, "gsort: %s: disorder at record %llu\n", name.c_str(),
                 static_cast<unsigned long long>(r.bad_record));
  }
  if (!config.stats_path.empty()) write_stats(check_stats_json(config, r, total_s), stats_file);
  return r.sorted ? kExitOk : kExitDisorder;
}

int run(const SortConfig& config) {
  Stopwatch total;
  const Log log(config.verbose);
  const KeyLayout layout = config.keys.empty() ? KeyLayout::whole_record(config.record_size, config.reverse)
                                               : KeyLayout(config.keys, config.record_size, config.reverse);
  // --stats FILE is made now (an unwritable place fails before any work)
  // and put in place only when the run succeeded.
  std::unique_ptr<OutputTarget> stats_file;
  if (!config.stats_path.empty() && config.stats_path != "-") {
    stats_file = std::make_unique<OutputTarget>(config.stats_path);
  }
  if (config.mode == Mode::kCheck) return check(config, layout, log, total, stats_file.get());
  ThreadPool pool(config.threads);
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  const Stopwatch backend_time;
  std::unique_ptr<SortBackend> backend = make_backend(config, layout, pool, log, size_known, input_bytes);
  log.info("backend: " + backend->describe() + ", ready in " + format_seconds(backend_time.seconds()));
  const SortReport report = external_sort(SortContext{config, layout, *backend, pool, log});
  const double total_s = total.seconds();
  report_verbose(log, report, *backend, total_s);
  if (!config.stats_path.empty()) write_stats(stats_json(config, report, *backend, total_s), stats_file.get());
  return kExitOk;
}

}  // namespace
}  // namespace gsort

int main(int argc, char** argv) {
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
