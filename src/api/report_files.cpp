#include "src/api/report_files.h"

#include <cstdio>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"
#include "src/report/stats_json.h"

namespace gsort {
namespace {

void write_into(const std::string& json, OutputTarget& file) {
  file.file().write_all(json.data(), json.size());
  file.prepare_commit();
}

void publish_one(OutputTarget* file, const std::string& output, const std::string& role) {
  if (!file) return;
  if (test_hooks::before_stats_rename) test_hooks::before_stats_rename(file->destination().c_str());
  try {
    file->publish();
  } catch (const IoError& e) {
    throw IoError("output " + (output == "-" ? std::string("(standard output)") : output) +
                  " was written, but not the " + role + ": " + e.what());
  }
}

}  // namespace

ReportFiles::ReportFiles(const SortConfig& config) : stats_wanted_(!config.stats_path.empty()) {
  if (stats_wanted_ && config.stats_path != "-") {
    stats_ = std::make_unique<OutputTarget>(config.stats_path, "--stats file");
  }
  if (!config.trace_path.empty()) trace_ = std::make_unique<OutputTarget>(config.trace_path, "--trace file");
}

void ReportFiles::write_stats(const std::string& json) {
  if (!stats_wanted_) return;
  if (stats_) {
    write_into(json, *stats_);
  } else {
    stderr_json_ = json;
  }
}

void ReportFiles::print_to_stderr() {
  if (!stderr_json_.empty()) std::fputs(stats_for_stderr(stderr_json_).c_str(), stderr);
  stderr_json_.clear();
}

void ReportFiles::write_trace(const std::string& json) {
  if (trace_) write_into(json, *trace_);
}

void ReportFiles::publish(const std::string& output) {
  publish_one(trace_.get(), output, "--trace file");
  publish_one(stats_.get(), output, "--stats file");
}

}  // namespace gsort
