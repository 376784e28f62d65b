// The --stats and --trace files of one run, for the records' runner and
// the lines' alike: made before any work (an unwritable place fails
// first), written just before the output's commit (a failure there leaves
// the destination as it was), and put in place after it.
#pragma once

#include <memory>
#include <string>

#include "io/output/output_target.h"
#include "src/config/sort_config.h"

namespace gsort {

class ReportFiles {
 public:
  explicit ReportFiles(const SortConfig& config);

  bool stats_wanted() const { return stats_wanted_; }
  bool trace_wanted() const { return trace_ != nullptr; }
  // --stats' JSON into its file's temporary, prepared for its rename; with
  // --stats -, kept for print_to_stderr(). Only when --stats was given.
  void write_stats(const std::string& json);
  void write_trace(const std::string& json);
  // The renames, after the output's commit: the one failure that comes
  // after the destination changed, and the message says so (output: the
  // file written, RunOptions::output).
  void publish(const std::string& output);
  // A check's --stats file, put in place (no output was written).
  void publish_check() {
    if (stats_) stats_->publish();
  }
  // --stats -: the JSON on stderr, after -v's lines (stats_for_stderr's layout).
  void print_to_stderr();
  // Whether print_to_stderr() has JSON to print.
  bool stats_for_stderr_pending() const { return !stderr_json_.empty(); }

 private:
  bool stats_wanted_ = false;
  std::string stderr_json_;
  std::unique_ptr<OutputTarget> stats_, trace_;
};

}  // namespace gsort
