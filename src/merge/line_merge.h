// The k-way merge of sorted streams of lines (spilled runs, or the inputs
// of -m) into a LineWriter, on all threads, in batches:
//  1. the windows that run low are refilled side by side (line_window.h),
//     and the new lines' image words 0 found by all threads;
//  2. the batch is every line up to the frontier: the smallest of the last
//     lines of the windows whose sources go on (each window's share found
//     by binary search);
//  3. the batch is cut into one piece per task at splitters sampled from
//     it (each source's share of a piece again by binary search), and each
//     piece merged by one thread through a loser tree (src/algo/
//     loser_tree.h) over the word 0 of each source's line, ties by the full
//     comparison, then by source: earlier sources hold earlier input, so
//     the merge is stable;
//  4. the pieces' lines, in order, are gathered into the writer's blocks
//     by all threads (-u and --verify applied there).
// Each batch first checks that every window's lines are in order. Where one
// is not (an unsorted input of -m), the batch is what GNU sort -m writes for
// any inputs: one line at a time, the least of the sources' next lines, ties
// to the earlier source, until a window whose source goes on runs dry.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/merge/line_window.h"
#include "src/output/line_writer.h"

namespace gsort {

struct MergeCount {
  uint64_t lines = 0;
  uint64_t bytes = 0;
};

// Merges every line of `windows` (in their order) into `out`.
MergeCount merge_lines(std::vector<std::unique_ptr<LineWindow>>& windows, const LineComparator& compare,
                       LineWriter& out, ThreadPool& pool);

}  // namespace gsort
