// One sort of lines in progress: what its stages share (sort_lines.cpp
// sets it up; line_spill.cpp forms runs, line_merge_passes.cpp merges).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "io/input/input_set.h"
#include "io/codec/output_encoder.h"
#include "io/output/output_target.h"
#include "io/temp/temp_dir.h"
#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/lines/keys/line_compare.h"
#include "src/lines/line_plan.h"
#include "src/lines/line_runs.h"
#include "src/lines/line_source.h"
#include "src/lines/line_verify.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"

namespace gsort {

struct LineJob {
  LineJob(const SortConfig& c, ThreadPool& p, const Log& l);

  const SortConfig& config;
  ThreadPool& pool;
  const Log& log;
  LineSpec spec;
  LineComparator compare;
  LinePlan plan;
  SortReport report;
  InputTally tally;
  ProgressMeter* meter = nullptr;
  std::unique_ptr<OutputEncoder> encoder;  // --compress-output
  std::atomic<uint64_t> written{0};        // bytes handed to the destination
  std::atomic<uint64_t> merged{0};         // bytes read by merges
  std::string sorter;                      // what sorted the chunks (for -v and --stats)
  std::unique_ptr<LineVerify> verify;      // --verify

  // -u's comparison, or null.
  const LineComparator* unique_by() const { return config.unique ? &compare : nullptr; }
  // The spilled runs' store, made (with the temporary directory) on first use.
  LineRunStore& runs();
  bool runs_made() const { return runs_ != nullptr; }
  // A writer of the destination (through the encoder with --compress-output).
  std::unique_ptr<LineWriter> destination_writer(OutputTarget& output);

 private:
  std::unique_ptr<TempDir> temp_;
  std::unique_ptr<LineRunStore> runs_;
};

// A source of sorted lines waiting to be merged: opened when its merge begins.
using LineOpener = std::function<std::unique_ptr<LineSource>()>;

// Merges the sources, in order, into the destination: in passes over
// groups of plan.fan_in consecutive sources while there are more (each
// group into a run held in `runs`).
void merge_line_sources(LineJob& job, std::vector<LineOpener> sources, std::deque<LineRun>& runs,
                        OutputTarget& output);

// Merges the last plan.fan_in runs into one, in their place (too many
// runs wait: each holds a descriptor).
void merge_last_runs(LineJob& job, std::deque<LineRun>& runs);

// The runs' openers, for merge_line_sources.
std::vector<LineOpener> openers_of(LineJob& job, std::deque<LineRun>& runs);

// Sorts the inputs: in memory when they fit one chunk (written to the
// destination), else as runs in `runs`, which are then to be merged.
// Returns true when the output was written.
bool sort_line_chunks(LineJob& job, std::deque<LineRun>& runs, OutputTarget& output);

}  // namespace gsort
