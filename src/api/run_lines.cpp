#include "src/api/run_lines.h"

#include <cstdio>
#include <memory>

#include "io/output_target.h"
#include "src/core/stopwatch.h"
#include "src/core/thread_pool.h"
#include "src/lines/sort_lines.h"
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

RunOutcome run_lines_config(const SortConfig& config) {
  Stopwatch total;
  const Log log(config.verbose);
  std::unique_ptr<OutputTarget> stats_file, trace_file;
  if (!config.stats_path.empty() && config.stats_path != "-") {
    stats_file = std::make_unique<OutputTarget>(config.stats_path, "--stats file");
  }
  if (!config.trace_path.empty()) trace_file = std::make_unique<OutputTarget>(config.trace_path, "--trace file");
  ThreadPool pool(config.threads);
  RunOutcome out;
  const auto before_commit = [&](const SortReport& r, const std::string& sorter) {
    if (trace_file) write_stats(chrome_trace_json(r), trace_file.get());
    if (!config.stats_path.empty()) {
      write_stats(stats_json(config, r, BackendSummary{sorter, {}, 0}, total.seconds()), stats_file.get());
    }
  };
  LineSortOutcome lines = sort_lines(config, pool, log, before_commit);
  out.report = lines.report;
  out.check = lines.check;
  out.backend = lines.sorter;
  out.seconds = total.seconds();
  if (config.mode == Mode::kCheck) {
    if (!config.stats_path.empty()) write_stats(check_stats_json(config, out.check, out.seconds), stats_file.get());
    if (stats_file) stats_file->publish();
    return out;
  }
  if (trace_file) trace_file->publish();
  if (stats_file) stats_file->publish();
  report_verbose(log, out);
  return out;
}

}  // namespace gsort
