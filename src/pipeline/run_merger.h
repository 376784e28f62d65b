// The k-way merge: sorted record sources in, one sorted stream out, through
// a loser tree. Equal keys come out in source order, so merging runs in the
// order they were formed keeps the sort stable.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "io/record_source.h"
#include "keys/key_layout.h"
#include "pipeline/record_output.h"

namespace gsort {

struct MergeOptions {
  uint64_t buffer_records = 1;  // per read buffer; each source has two
  // Verify that every source is itself sorted (inputs of --merge); a
  // violation throws DataError naming the source and record.
  bool verify_sources_sorted = false;
};

// Merges all sources into out; returns the records read.
uint64_t merge_sources(std::vector<std::unique_ptr<RecordSource>>& sources, const KeyLayout& layout,
                       const MergeOptions& options, RecordOutput& out);

}  // namespace gsort
