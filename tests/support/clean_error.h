// gsort's "clean failure" contract, checked on a finished run: exit 2,
// nothing on stdout, and one stderr line starting "gsort: " that mentions
// each of `mentions`. A mention is an alternation "a|b|c" matched without
// regard to case.
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gsort_test {

void expect_clean_error(const ProcessResult& r, const std::vector<std::string>& mentions,
                        const std::string& context = "");

// True when text contains one of the alternatives of mention ("a|b|c"),
// ignoring case.
bool mentions_any(const std::string& text, const std::string& mention);

std::string lower(std::string s);

}  // namespace gsort_test
