// Text lines across ranks (issue 55), the records' phases with lines as
// bytes (distributed_sort.h):
//   1. the ranks agree on the request, the line options and the locale
//      included (rank_input.h), and each takes a slice of the inputs end to
//      end, cut at line starts (line_slice.h);
//   2. samples at even places of every slice give N-1 splitter lines,
//      ordered by key, then place (line_router.h): with -u, whole keys;
//   3. each rank reads its slice once, in windows, and sends each line to
//      the rank of its key range (routed_slice.h); rank 0 does this alone
//      for standard input, pipes and compressed files (streamed_lines.h);
//   4. each rank sorts what it received, in rank order and so in input
//      order, with one process's line sort and every option given: stable
//      where the sort is, and -u keeps the first of each key, since no key
//      spans two ranks. Where every line is kept (not -u) and the output is
//      one plain file, it sorts straight into its range of that file;
//   5. the parts' ends are checked across rank boundaries (a wrong order
//      is an error, never an output), then, where ranks read different
//      views, the inputs' content (partition/content_check.h);
//   6. the parts not yet in place go there (at their offsets, as
//      --output-parts, or onto rank 0's standard output), committed once
//      every rank succeeded.
// Byte for byte one process's output for the same options.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Collective; config.lines.enabled. Throws RanksFailed on every rank when
// any rank failed; the destination is then as it was and no rank leaves
// temporary files.
void distributed_sort_lines(const RankGroup& group, const SortConfig& config);

}  // namespace gsort
