#include "tests/support/clean_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

namespace gsort_test {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool mentions_any(const std::string& text, const std::string& mention) {
  const std::string haystack = lower(text);
  for (size_t start = 0; start <= mention.size();) {
    const size_t bar = std::min(mention.find('|', start), mention.size());
    if (haystack.find(lower(mention.substr(start, bar - start))) != std::string::npos) return true;
    start = bar + 1;
  }
  return false;
}

void expect_clean_error(const ProcessResult& r, const std::vector<std::string>& mentions,
                        const std::string& context) {
  SCOPED_TRACE(context);
  EXPECT_EQ(r.status(), "exit 2") << "stderr: " << r.err;
  EXPECT_EQ(r.out.size(), 0u) << "stdout must be empty on error";
  EXPECT_EQ(r.err.rfind("gsort: ", 0), 0u) << "stderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "want one line: " << r.err;
  EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << "stderr: " << r.err;
  for (const std::string& mention : mentions) {
    EXPECT_TRUE(mentions_any(r.err, mention)) << "stderr should mention " << mention << ": " << r.err;
  }
}

}  // namespace gsort_test
