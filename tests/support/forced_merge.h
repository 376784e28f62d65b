// gsort-test-hooks with its final merge forced (GSORT_TEST_FINAL_MERGE),
// for the tests of the merges in ranges and in batches, records' and lines'.
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {

struct ForcedMerge {
  ProcessResult result;
  std::string out;  // the output's bytes, where it exited 0
};

// gsort-test-hooks `args` -T dir -v dir/in -o dir/`output`, in the C
// locale with `env` added, the final merge forced `how` ("batches",
// "ranges:N" or "planned").
ForcedMerge sort_forcing_merge(const TempDir& dir, const std::string& how, const std::vector<std::string>& args,
                               const std::vector<std::string>& env = {}, const std::string& output = "out");

}  // namespace gsort_test
