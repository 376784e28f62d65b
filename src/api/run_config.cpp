#include "src/api/run_config.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "io/codec/input_format.h"
#include "io/input/input_set.h"
#include "io/input/readable_inputs.h"
#include "io/output/output_parts.h"
#include "src/api/report_files.h"
#include "src/api/run_lines.h"
#include "src/api/teardown_clock.h"
#include "src/cli/distinct_files.h"
#include "src/chunk_sort/backend_factory.h"
#include "src/chunk_sort/starting_backend.h"
#include "src/config/config_layout.h"
#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/core/stopwatch.h"
#include "src/core/thread_pool.h"
#include "src/pipeline/external_sort.h"
#include "src/report/anonymous_peak.h"
#include "src/report/progress.h"
#include "src/report/stats_json.h"
#include "src/report/trace_file.h"

namespace gsort {
namespace {

// " (from A to B)": when a phase's first span started and its last ended,
// in seconds since gsort started; "" for a phase that has no span.
std::string phase_window(const SortReport& r, const std::string& name) {
  double from = -1, to = -1;
  for (const PhaseSpan& span : r.timeline) {
    if (span.phase != name) continue;
    if (from < 0 || span.start_s < from) from = span.start_s;
    to = std::max(to, span.end_s);
  }
  if (from < 0) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, " (from %.3f s to %.3f s)", from, to);
  return buf;
}

void report_verbose(const Log& log, const SortReport& r, const SortBackend& backend, double total_s) {
  if (!log.verbose()) return;
  log.info("records: " + std::to_string(r.input_records) + " in, " + std::to_string(r.output_records) + " out");
  log.info("temp bytes written: " + std::to_string(r.temp_bytes));
  for (const auto& [name, seconds] : r.phases) log.info("phase " + name + ": " + seconds_text(seconds) + phase_window(r, name));
  const BackendTimings t = backend.timings();
  log.info("backend at the end: " + backend.describe());
  log.info("memory: peak " + mebibytes_text(r.peak_anonymous_bytes) + " anonymous (sampled), " +
           mebibytes_text(peak_host_bytes()) + " resident (VmHWM, with the pages of mapped files)");
  log.info("backend: extract " + seconds_text(t.extract_s) + ", sort " + seconds_text(t.sort_s) +
           ", merge " + seconds_text(t.merge_s) + ", copy in " + seconds_text(t.copy_in_s) + ", copy out " +
           seconds_text(t.copy_out_s));
  const double mb = static_cast<double>(r.input_bytes) / 1e6;
  char line[96];
  std::snprintf(line, sizeof line, "total: %.3f s (%.1f MB/s)", total_s, total_s > 0 ? mb / total_s : 0.0);
  log.info(line);
}

// The report with the backend's start-up (timed in run(), before the
// pipeline) as its first phase.
SortReport with_backend_start(SortReport r, const PhaseSpan& backend_span) {
  r.timeline.insert(r.timeline.begin(), backend_span);
  r.phases.insert(r.phases.begin(), {backend_span.phase, backend_span.end_s - backend_span.start_s});
  return r;
}

// -c / -C. The progress line and --stats work as for a sort; -C shows no
// progress unless --progress asks.
RunOutcome check(const SortConfig& config, const KeyLayout& layout, const Log& log, const Stopwatch& total,
                 ReportFiles& files) {
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  std::atomic<uint64_t> checked_bytes{0};
  RunOutcome out;
  {
    ProgressMeter meter(ProgressMeter::wanted(config));
    meter.phase("checking", size_known ? input_bytes : 0, &checked_bytes);
    out.check = check_sorted(config.inputs.front(), layout, config.unique, 16u << 20, &checked_bytes);
  }
  out.seconds = total.seconds();
  const CheckResult& r = out.check;
  log.info("checked " + std::to_string(r.records) + " records in " + seconds_text(out.seconds) +
           (r.sorted ? ": sorted" : ": disorder at record " + std::to_string(r.bad_record)));
  files.write_stats(check_stats_json(config, r, out.seconds));
  files.publish_check();
  files.print_to_stderr();
  return out;
}

}  // namespace

// The started backend, and the pool it was given, kept past the run.
struct PendingStart {
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<SortBackend> backend;  // after the pool: goes first
};

namespace {

// The run, once its files are checked.
RunOutcome run_checked(const SortConfig& config, const RunOptions& run, Stopwatch& total) {
  const Log log(config.verbose);
  TeardownClock teardown(log);  // before what it times the freeing of
  const KeyLayout layout = layout_of(config);
  ReportFiles files(config);
  if (config.mode == Mode::kCheck) return check(config, layout, log, total, files);
  say_when_main_began(log);
  std::optional<AnonymousPeak> anonymous;  // for --stats and -v
  if (files.stats_wanted() || log.verbose()) anonymous.emplace();
  auto pool = std::make_unique<ThreadPool>(config.threads);  // outlives the backend (PendingStart)
  bool size_known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &size_known);
  const double backend_start = process_seconds();
  // auto weighs whether an in-memory sort's one input can be sorted from its
  // mapping (a look at every page: not for inputs larger than -S).
  const bool input_cached = config.mode == Mode::kSort && config.backend == BackendChoice::kAuto && size_known &&
                            input_bytes > 0 && input_bytes <= config.memory_bytes && input_in_page_cache(config.inputs);
  std::unique_ptr<SortBackend> backend =
      make_backend(config, layout, *pool, log, size_known, input_bytes, BackendStart::kInBackground, input_cached);
  auto* starting = dynamic_cast<StartingBackend*>(backend.get());
  PhaseSpan backend_span{"start backend", "main", backend_start, process_seconds()};
  if (!starting) {
    log.info("backend: " + backend->describe() + ", ready in " +
             seconds_text(backend_span.end_s - backend_span.start_s));
  }
  SortContext ctx{config, layout, *backend, *pool, log};
  // --stats' and --trace's times end just before the output's commit (its
  // rename); both files are written then, and renamed after it.
  ctx.before_commit = [&](const SortReport& r) {
    if (starting && (starting->ready() || !starting->sorted_without_start())) {
      // A start that failed and was never needed (an empty input) still
      // fails the run, before the output is put in place, unless auto
      // sorted the input without it.
      if (!starting->sorted_without_start()) starting->backend();
      backend_span = PhaseSpan{"start backend", "backend start", starting->started_at(), starting->ended_at()};
    } else if (starting && starting->start_pending()) {
      backend_span = PhaseSpan{"start backend", "backend start", starting->started_at(), process_seconds()};
    }
    SortReport whole = with_backend_start(r, backend_span);
    if (anonymous) whole.peak_anonymous_bytes = anonymous->bytes();
    if (files.trace_wanted()) files.write_trace(chrome_trace_json(whole));
    if (files.stats_wanted()) files.write_stats(stats_json(config, run.output, whole, *backend, total.seconds()));
  };
  RunOutcome out;
  out.report = with_backend_start(external_sort(ctx, run), backend_span);
  if (anonymous) out.report.peak_anonymous_bytes = anonymous->bytes();
  files.publish(run.output);
  out.seconds = total.seconds();
  out.backend = backend->describe();
  report_verbose(log, out.report, *backend, out.seconds);
  const bool stats_last = files.stats_for_stderr_pending();
  files.print_to_stderr();  // --stats -: after -v's lines, not in the middle of them
  if (!stats_last) teardown.start();
  if (starting && starting->sorted_without_start()) {
    if (starting->start_pending()) {
      log.info("backend: the device was still starting when the output was committed; the run does not wait for it");
      out.pending_start = std::make_shared<PendingStart>(PendingStart{std::move(pool), std::move(backend)});
    } else if (!starting->ready()) {
      log.info("backend: the device was never started: the stream was sorted whole on the CPU");
    }
  }
  return out;
}

}  // namespace

RunOptions one_process_run(const SortConfig& config) {
  RunOptions run;
  run.output = config.output;
  if (config.output_parts) {
    run.output = part_file_name(config.output, 0);
    run.parts_directory = config.output;
  }
  return run;
}

RunOutcome run_config(const SortConfig& config, const RunOptions& run) {
  Stopwatch total;
  set_input_decoding(config.decompress);
  require_readable_inputs(config.inputs);
  refuse_overlapping_files(config, run.output);
  std::optional<OutputDirectory> parts;
  if (!run.parts_directory.empty()) parts.emplace(run.parts_directory);
  RunOutcome outcome = config.lines.enabled ? run_lines_config(config, run) : run_checked(config, run, total);
  if (parts) parts->keep();
  return outcome;
}

}  // namespace gsort
