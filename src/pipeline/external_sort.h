// The external sort: form sorted runs from the input (or sort it all in
// memory when it fits the budget), then merge them, in as many passes as the
// budget needs, into the output. The one place that sees every stage:
//   inputs -> chunk -> backend sort -> run files -> k-way merge -> output.
#pragma once

#include <functional>

#include "src/chunk_sort/sort_backend.h"
#include "src/config/run_options.h"
#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/core/log.h"
#include "src/report/sort_report.h"

namespace gsort {

struct SortContext {
  const SortConfig& config;
  const KeyLayout& layout;
  SortBackend& backend;
  ThreadPool& pool;
  const Log& log;
  // Called with the report just before the output is committed (the commit
  // not yet in it): what must be written before the destination changes
  // (--stats). An exception it throws leaves the destination as it was.
  std::function<void(const SortReport&)> before_commit = {};
};

// Sorts (Mode::kSort) or merges (Mode::kMerge) config.inputs into
// run.output. Throws gsort::Error; on any failure the destination is left
// as it was and temp files are removed.
SortReport external_sort(const SortContext& ctx, const RunOptions& run);

}  // namespace gsort
