// Where a sort of lines writes (src/pipeline/sort_destination.h) and its
// blocks: the output file itself mapped where it may be, else write-behind
// buffers to its sink; --debug's annotator or --compress-output's encoder
// over it.
#pragma once

#include <cstdint>
#include <memory>

#include "src/config/run_options.h"
#include "src/lines/line_context.h"
#include "src/lines/plan.h"
#include "src/output/line_writer.h"
#include "src/output/output_blocks.h"
#include "src/pipeline/sort_destination.h"
#include "src/verify/line_ledger.h"

namespace gsort {

struct LineDestination : SortDestination {
  // Opens run.output: the inputs' size, where known, bounds the output (a
  // terminator added to each input's last line at most), and its file
  // system is checked for room first (unless --no-space-check); an input
  // known to fit one chunk of `plan` has the output's pages made present
  // while it is read and sorted.
  LineDestination(const LineContext& ctx, const RunOptions& run, const LinePlan& plan);

  // The destination's one writer of sorted lines; `bytes`: at most what
  // it will write (0: unknown); --verify's ledger, or null.
  std::unique_ptr<LineWriter> writer(const LineContext& ctx, uint64_t bytes, LineVerify* verify);

  // A spilled sort of `bytes` of lines that outgrows the page cache
  // (outgrows_page_cache, the records' rule too) writes the output around
  // the cache (SortDestination::write_around_the_cache) where its file
  // system allows: a buffered stream there waits on writeback and reclaim.
  void write_past_the_cache(const LineContext& ctx, uint64_t budget, uint64_t bytes);

  OutputBlocks blocks;
};

}  // namespace gsort
