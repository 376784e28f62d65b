// What every stage of one sort of lines reads and none writes: the
// options, the order their keys compile to, the pool and the log (as the
// records' SortContext, src/pipeline/external_sort.h). Each stage takes
// the rest (the plan, the runs, the destination, the report) as arguments
// from the driver, sort_lines.cpp.
#pragma once

#include <cstdint>

#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_spec.h"

namespace gsort {

struct LineContext {
  LineContext(const SortConfig& c, ThreadPool& p, const Log& l)
      : config(c), pool(p), log(l), compare(make_line_spec(c.lines, c.reverse, c.unique)) {}
  LineContext(const LineContext&) = delete;
  LineContext& operator=(const LineContext&) = delete;

  const SortConfig& config;
  ThreadPool& pool;
  const Log& log;
  const LineComparator compare;

  const LineSpec& spec() const { return compare.spec(); }
  uint8_t eol() const { return compare.spec().eol; }
  // -u's comparison, or null.
  const LineComparator* unique_by() const { return config.unique ? &compare : nullptr; }
};

}  // namespace gsort
