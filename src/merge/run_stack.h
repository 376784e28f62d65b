// The runs waiting to be merged, kept few by merging early. Sources are
// pushed in order (spilled runs as they are formed, or the inputs of
// --merge); whenever the last fan-in sources are of one level (merged as
// often), they are merged into one run of the next level, as in a merge
// tree, so each record is rewritten about log_fan-in(runs) times, the same
// as merging in passes at the end. And when the files of the runs waiting
// reach max_open_runs (each holds a descriptor), the last fan-in are merged
// whatever their levels. So the runs on disk stay bounded, however large
// the input: a few times the fan-in at most, never a million.
//
// Only consecutive sources are merged, and a merge keeps equal keys in
// source order, so the sort stays stable.
#pragma once

#include <cstddef>
#include <vector>

#include "io/output/output_target.h"
#include "src/merge/group_merger.h"
#include "src/merge/pending_source.h"
#include "src/report/sort_report.h"

namespace gsort {

class RunStack {
 public:
  // Merges early through `merges`, and counts those merges in `report`.
  RunStack(GroupMerger& merges, SortReport& report) : merges_(merges), report_(report) {}

  // Whether pushing one more level-0 run (or input) of files_per_run files
  // would merge, after runs_before such runs were pushed without merging
  // (a spill still being written): run formation frees its chunk buffers
  // first, so that the merge has the whole budget.
  bool push_would_merge(bool is_run, size_t runs_before = 0, size_t files_per_run = 1) const;
  // Adds `source` (level 0), then merges early as needed.
  void push(PendingSource source);
  // Adds an input of --merge, after the early merges that the one before
  // it called for: those wait for an input to follow, so that as many
  // inputs as one merge takes are left to the final merge, with no
  // temporary run (GNU sort merges as many as --batch-size directly).
  void push_input(PendingSource input);
  bool empty() const { return waiting_.empty(); }
  size_t size() const { return waiting_.size(); }
  // What is left, in order, for the final merge (merge_all).
  std::vector<PendingSource> take() { return std::move(waiting_); }
  // Merges the last sources waiting until at most `most` wait (at least 1).
  // Each merge takes the run the one before it wrote, so the descriptors
  // held stay within the limits'.
  void merge_down_to(size_t most);
  // --merge's inputs, each pushed (push_input), then merged down to
  // `fan_in` (merge_down_to). Meanwhile the output's file, still empty,
  // is set aside where `aside` is given, so that its descriptor serves the
  // early merges (as GNU sort writes through standard output and holds
  // none for it), and taken back after them.
  void push_inputs(std::vector<PendingSource> inputs, size_t fan_in, OutputTarget* aside);

 private:
  // The last `count` sources waiting, all of level `level`?
  size_t trailing_at_level(int level) const;
  // Descriptors the waiting runs hold (a run's segments each hold one).
  size_t open_files() const;
  // Merges the last `count` waiting sources into one run.
  void merge_last(size_t count);
  // Merges the last sources while fan-in of them are of one level, or
  // their files reach the limit.
  void merge_early();

  GroupMerger& merges_;
  SortReport& report_;
  std::vector<PendingSource> waiting_;
};

}  // namespace gsort
