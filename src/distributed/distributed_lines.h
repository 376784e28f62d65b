// Text lines across ranks (issue 55), the records' phases with lines as
// bytes (distributed_sort.h):
//   1. the ranks agree on the request, the line options and the locale
//      included (rank_input.h), and each takes a slice of the inputs end to
//      end, cut at line starts (line_slice.h);
//   2. each rank sorts its slice with one process's line sort into a
//      sorted part in -T (src/lines/sort_lines.h), with every option given
//      (-u drops duplicates within the slice first);
//   3. samples of every part give N-1 splitter lines, ordered by key, then
//      rank, then place (sorted_line_part.h): with -u, whole keys;
//   4. the ranks trade the parts' pieces so that each holds its range of
//      the total order from every rank (line_exchange.h);
//   5. each rank merges what it received, in rank order, with one
//      process's -m and the same options: stable where the sort is, and
//      -u keeps the first of each key, since no key spans two ranks;
//   6. the parts' ends are checked across rank boundaries (a wrong order
//      is an error, never an output), then, where ranks read different
//      views, the inputs' content (partition/content_check.h);
//   7. each rank writes its part at its offset of the one output (or as
//      --output-parts), committed once every rank succeeded.
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
