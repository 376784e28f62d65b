// What the tests of mapped inputs (records' and lines') share: a file's pages
// dropped from the page cache, and a sort whose input is cut short once it
// is mapped (gsort-test-hooks).
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gsort_test {

// Writes `path` back and drops its pages from the page cache (a failed call
// fails the test); false where some stay (a tmpfs keeps them).
bool drop_from_page_cache(const std::string& path);

// Reads `path` whole so that its pages are in the page cache; false where
// some are not after three reads (another program's memory pressure pushed
// them out), so that a test of a warm input can tell that from a defect.
bool bring_into_page_cache(const std::string& path);

// gsort-test-hooks `args` `input` -o `output` (in the C locale), `input`
// cut to 4096 bytes once it is mapped (GSORT_TEST_TRUNCATE_INPUT=...:mapped):
// fails the test unless gsort exits 2, says the input was cut short, and
// leaves no `output`.
void expect_cut_short_once_mapped_fails(const std::vector<std::string>& args, const std::string& input,
                                        const std::string& output);

}  // namespace gsort_test
