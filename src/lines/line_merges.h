// The merges of a sort of lines (or of -m): sources read through windows
// of the plan's size (src/merge/line_window.h), merged in batches
// (src/merge/line_merge.h) into runs in the temporary directory, early and
// in passes (src/merge/merge_in_passes.h, as the records' merges), or into
// the destination, in ranges where it may (merge_in_ranges.h). What they
// write is counted in the report.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/lines/line_context.h"
#include "src/lines/line_destination.h"
#include "src/lines/plan.h"
#include "src/merge/group_merger.h"
#include "src/merge/held_runs.h"
#include "src/merge/line_run_output.h"
#include "src/merge/line_window.h"
#include "src/merge/merge_limits.h"
#include "src/merge/pending_source.h"
#include "src/merge/temp_runs.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"
#include "src/verify/line_ledger.h"

namespace gsort {

class LineMerges {
 public:
  // verify: --verify's ledger, or null.
  LineMerges(const LineContext& ctx, const LinePlan& plan, TempRuns& runs, LineVerify* verify, SortReport& report)
      : ctx_(ctx), plan_(plan), runs_(runs), verify_(verify), report_(report) {}

  const LineContext& context() const { return ctx_; }
  const LinePlan& plan() const { return plan_; }
  TempRuns& runs() const { return runs_; }
  LineVerify* verify() const { return verify_; }
  SortReport& report() const { return report_; }

  // A waiting source as a merge window, when `sources` are merged at once.
  std::unique_ptr<LineWindow> window(PendingSource& source, uint64_t sources) const;
  // The same over any stream of lines (a held run, read_in_order).
  std::unique_ptr<LineWindow> window(std::unique_ptr<RecordSource> from, uint64_t sources) const;
  // A new run written as `streams` segments (on any thread, once made).
  std::unique_ptr<LineRunOutput> run_output(PendingSource& run, unsigned streams) const;
  // A finished run in the report.
  void count_run(const LineRunFigures& figures) const;

  // The group merged into one run of one stream; its runs' files are
  // freed. fan_in: the most sources a merge takes (the window it decides
  // the runs' compression by).
  PendingSource merge_into_run(std::vector<PendingSource>& group, uint64_t fan_in) const;

 private:
  const LineContext& ctx_;
  const LinePlan& plan_;
  TempRuns& runs_;
  LineVerify* verify_;
  SortReport& report_;
};

// The merges of sources into runs under `limits`: for the waiting runs'
// stack (src/merge/run_stack.h: runs as they are formed, -m's inputs) and
// the passes before the final merge.
class LineGroupMerges final : public GroupMerger {
 public:
  LineGroupMerges(const LineMerges& merges, const MergeLimits& limits) : merges_(merges), limits_(limits) {}
  const MergeLimits& limits() const override { return limits_; }
  const Log& log() const override { return merges_.context().log; }
  PendingSource merge_to_run(std::vector<PendingSource> group) override {
    return merges_.merge_into_run(group, limits_.fan_in);
  }

 private:
  const LineMerges& merges_;
  const MergeLimits limits_;
};

// A spilled sort's limits: the plan's fan-in and waiting files.
MergeLimits line_merge_limits(const LinePlan& plan);

// Merges the sources (runs, or -m's inputs), in order, and then the runs
// `held` holds (null: none), into `out`: in passes while more than
// limits.fan_in wait, then in ranges where it may, else in batches.
// bound: at most the bytes it will write (0: unknown).
void merge_line_sources(const LineMerges& merges, LineDestination& out, HeldRuns* held, ProgressMeter& meter,
                        std::vector<PendingSource> sources, uint64_t bound, const MergeLimits& limits);

// Merges -m's inputs into `out`: early, as they are opened in turn, into
// runs (src/merge/run_stack.h), while more wait than one merge takes or
// the descriptors allow, then the rest at once (by merge limits of their
// own, now that the destination is open).
void merge_line_inputs(const LineMerges& merges, LineDestination& out, ProgressMeter& meter,
                       std::vector<PendingSource> inputs, uint64_t bound);

}  // namespace gsort
