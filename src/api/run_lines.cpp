#include "src/api/run_lines.h"

#include <optional>
#include <string>

#include "src/api/report_files.h"
#include "src/api/teardown_clock.h"
#include "src/core/stopwatch.h"
#include "src/core/thread_pool.h"
#include "src/lines/sort_lines.h"
#include "src/report/anonymous_peak.h"
#include "src/report/stats_json.h"
#include "src/report/trace_file.h"

namespace gsort {
namespace {

void report_verbose(const Log& log, const RunOutcome& out) {
  if (!log.verbose()) return;
  const SortReport& r = out.report;
  log.info("lines: " + std::to_string(r.input_records) + " in, " + std::to_string(r.output_records) + " out; " +
           std::to_string(r.runs) + " runs, " + std::to_string(r.merge_passes) + " merge passes");
  for (const auto& [name, seconds] : r.phases) log.info("phase " + name + ": " + std::to_string(seconds) + " s");
  log.info("total: " + std::to_string(out.seconds) + " s");
}

}  // namespace

RunOutcome run_lines_config(const SortConfig& config, const RunOptions& run) {
  Stopwatch total;
  const Log log(config.verbose);
  TeardownClock teardown(log);  // before what it times the freeing of
  say_when_main_began(log);
  ReportFiles files(config);
  std::optional<AnonymousPeak> anonymous;  // for --stats
  if (files.stats_wanted()) anonymous.emplace();
  ThreadPool pool(config.threads);
  RunOutcome out;
  const auto before_commit = [&](const SortReport& r, const std::string& sorter) {
    if (files.trace_wanted()) files.write_trace(chrome_trace_json(r));
    if (files.stats_wanted()) {
      SortReport sampled = r;
      sampled.peak_anonymous_bytes = anonymous->bytes();
      files.write_stats(stats_json(config, run.output, sampled, BackendSummary{sorter, {}, 0}, total.seconds()));
    }
  };
  LineSortOutcome lines = sort_lines(config, run, pool, log, before_commit);
  out.report = lines.report;
  out.check = lines.check;
  out.backend = lines.sorter;
  out.seconds = total.seconds();
  if (config.mode == Mode::kCheck) {
    files.write_stats(check_stats_json(config, out.check, out.seconds));
    files.publish_check();
    files.print_to_stderr();
    return out;
  }
  files.publish(run.output);
  report_verbose(log, out);
  const bool stats_last = files.stats_for_stderr_pending();
  files.print_to_stderr();  // --stats -: after -v's lines
  if (!stats_last) teardown.start();
  return out;
}

}  // namespace gsort
