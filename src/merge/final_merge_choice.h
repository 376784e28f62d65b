// How the final merge goes, for both units: in key ranges on every core
// (parallel_merge.h; the lines' src/lines/merge_in_ranges.h), or in batches
// where the ranges decline, which -v says with its reason; and the test
// hook that forces either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/log.h"

namespace gsort {

// GSORT_TEST_FINAL_MERGE (src/core/test_hooks.h): the ranges forced (> 0),
// the batches forced (-1), or 0: as planned.
long forced_final_merge_ranges();

// Says under -v that the final merge goes in batches because of `why`, and
// returns true; false, saying nothing, where `why` is empty.
bool merge_in_batches_because(const Log& log, const std::string& why);

// The start of -v's line for a final merge in ranges: "final merge: R
// ranges of N runs on T threads (read buffers of K KiB)".
std::string ranges_line_start(size_t ranges, size_t runs, size_t threads, uint64_t buffer_bytes);

}  // namespace gsort
