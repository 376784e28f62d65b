// The k-way merge of sorted streams of lines (spilled runs, or the inputs
// of -m) into a LineWriter: a loser tree (src/algo/loser_tree.h) over the
// sources' current lines, each with its image word 0 cached, so that most
// comparisons are one integer comparison; ties go to the full comparison,
// then to the source's place (earlier sources hold earlier input: stable).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/lines/keys/line_compare.h"
#include "src/lines/line_source.h"
#include "src/lines/line_writer.h"

namespace gsort {

struct MergeCount {
  uint64_t lines = 0;
  uint64_t bytes = 0;
};

// Merges every line of `sources` (in their order) into `out`. Like GNU
// sort -m, it trusts the sources to be sorted. This thread picks the lines;
// they are copied into the write buffers in batches by the pool's threads
// (a batch ends where a source must read more).
MergeCount merge_lines(std::vector<std::unique_ptr<LineSource>>& sources, const LineComparator& compare,
                       LineWriter& out, ThreadPool& pool);

}  // namespace gsort
