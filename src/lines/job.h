// One sort of lines in progress: what its stages share (sort_lines.cpp
// sets it up and decides where the runs and the output go; spill.cpp forms
// runs, merge_passes.cpp merges).
#pragma once

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/core/device_budget.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/lines/plan.h"
#include "src/merge/held_runs.h"
#include "src/merge/line_run_output.h"
#include "src/merge/line_window.h"
#include "src/merge/merge_limits.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/output/output_blocks.h"
#include "src/pipeline/sort_destination.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"
#include "src/verify/line_ledger.h"

namespace gsort {

class LineReader;
class LineSorter;

// A store for held runs, once made; or why there is none.
struct HeldRunsStart {
  std::unique_ptr<HeldRuns> store;
  std::string why;
};

// The destination (src/pipeline/sort_destination.h) and its blocks: the
// output file itself mapped where it may be, else write-behind buffers to
// its sink.
struct LineDestination : SortDestination {
  LineDestination(const SortConfig& config, const RunOptions& run, ThreadPool& pool, uint64_t block_bytes);
  OutputBlocks blocks;
};

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
  std::string sorter;                  // what sorted the chunks (for -v and --stats)
  std::unique_ptr<LineVerify> verify;  // --verify
  TempRuns runs;                       // one-byte records
  std::unique_ptr<LineDestination> out;
  // Where the runs are held instead of the temporary directory (the GPU's
  // memory), or null; declared after `out`: freed before it. held_start:
  // the store being made beside the first chunks (hold_line_runs), which
  // take_held_runs takes once it is ready; a start still going on when the
  // job ends is waited for before `held` goes.
  std::unique_ptr<HeldRuns> held;
  std::future<HeldRunsStart> held_start;
  // --gpu-memory, which the GPU sorter and the held runs take from together.
  std::shared_ptr<DeviceBudget> device_budget;

  // -u's comparison, or null.
  const LineComparator* unique_by() const { return config.unique ? &compare : nullptr; }
  // The destination's one writer; `bytes`: at most what it will write (0: unknown).
  std::unique_ptr<LineWriter> destination_writer(uint64_t bytes);
  // A new run written as `streams` segments (on any thread, once made).
  std::unique_ptr<LineRunOutput> run_output(PendingSource& run, unsigned streams);
  // A finished run in the report.
  void count_run(const LineRunFigures& figures);
  // A waiting source as a merge window, when `sources` are merged at once.
  std::unique_ptr<LineWindow> window(PendingSource& source, uint64_t sources);
  // The same over any stream of lines (a held run, read_in_order).
  std::unique_ptr<LineWindow> window(std::unique_ptr<RecordSource> from, uint64_t sources);
};

// The room check counts the runs a spilled sort of `bytes` of lines writes
// (room_check.h): now where they are plain, or once the sample decides.
void count_line_runs(LineJob& job, uint64_t bytes);

// A spilled sort of `bytes` of lines that outgrows the page cache
// (outgrows_page_cache, the records' rule too) writes the output around
// the cache (SortDestination::write_around_the_cache) where its file
// system allows: a buffered stream there waits on writeback and reclaim.
void write_output_past_the_cache(LineJob& job, uint64_t bytes);

// Merges the sources (runs, or -m's inputs), in order, and then the runs
// job.held holds, into the destination: in passes while more than
// limits.fan_in wait (src/merge/merge_in_passes.h, as the records' merges),
// then in ranges where it may (merge_in_ranges.h), else in batches.
// bound: at most the bytes it will write (0: unknown).
void merge_line_sources(LineJob& job, std::vector<PendingSource> sources, uint64_t bound, const MergeLimits& limits);
// A spilled sort's limits: the plan's fan-in and waiting files.
MergeLimits line_merge_limits(const LinePlan& plan);

// Merges -m's inputs into the destination: early, as they are opened in
// turn, into runs (src/merge/run_stack.h), while more wait than one merge
// takes or the descriptors allow, then the rest at once (by merge limits of
// their own, now that the destination is open).
void merge_line_inputs(LineJob& job, std::vector<PendingSource> inputs, uint64_t bound);

// Merges the last plan.fan_in runs into one, in their place (too many
// runs wait: each holds a descriptor).
void merge_last_runs(LineJob& job, std::deque<PendingSource>& runs);

// Where a device may hold the runs of a spilled sort of `bytes` of lines
// (the input is large enough for that to pay), starts making the store in
// the GPU's memory beside the first chunks (job.held_start); -v says which,
// and why.
void hold_line_runs(LineJob& job, uint64_t bytes);
// Before each run: whether it goes to job.held, which it fills from the
// start once that is ready (the runs before it went to the temporary
// directory).
bool take_held_runs(LineJob& job);
// The pieces a stream's first chunk was sorted in, where they lie in
// `sorted` (runs between `bounds`: sort_arriving.h), as job.held. With
// take_held_runs, the only writers of job.held (hold_runs.cpp).
void hold_sorted_pieces(LineJob& job, HostBuffer sorted, const std::vector<uint64_t>& bounds);

// The chunks' plan (job.plan, replanned now that the sorter says what a
// line takes of -S) and what the report and the runs' writes take of it.
void plan_line_chunks(LineJob& job, const LineReader& reader, const LineSorter& sorter);

// Sorts the inputs from `reader` with `sorter` (planned: plan_line_chunks):
// in memory when they fit one chunk (written to the destination), else as
// runs, returned to be merged (none: the output was written).
std::deque<PendingSource> sort_line_chunks(LineJob& job, LineReader& reader, LineSorter& sorter);

}  // namespace gsort
