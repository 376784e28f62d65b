// The examples in the public headers' comments hold: every key spec quoted
// there ("0:u64", ...) is one the library takes (issue 32: gsort.h showed
// "16:bytes:10", which the key parser refuses). The header's code example
// is built and run against the installed library by
// tests/packaging/check_library_install.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gsort/gsort.h"

namespace {

// The public headers: include/gsort of the source tree (GSORT_PUBLIC_HEADERS_DIR,
// tests/CMakeLists.txt).
std::vector<std::string> public_headers() {
  std::vector<std::string> headers;
  for (const auto& entry : std::filesystem::directory_iterator(GSORT_PUBLIC_HEADERS_DIR)) {
    headers.push_back(entry.path().string());
  }
  return headers;
}

// The quoted key specs ("OFFSET:...") in the comments of one header.
std::vector<std::string> quoted_key_specs(const std::string& header) {
  std::ifstream in(header);
  EXPECT_TRUE(in) << header;
  std::vector<std::string> specs;
  const std::regex quoted("\"([0-9]+:[^\" ]*)\"");
  std::string line;
  while (std::getline(in, line)) {
    const size_t comment = line.find("//");
    if (comment == std::string::npos) continue;
    const std::string text = line.substr(comment);
    for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it) {
      specs.push_back((*it)[1]);
    }
  }
  return specs;
}

TEST(HeaderExamples, EveryQuotedKeySpecSorts) {
  size_t seen = 0;
  for (const std::string& header : public_headers()) {
    for (const std::string& spec : quoted_key_specs(header)) {
      ++seen;
      gsort::Options o;
      o.record_size = 64;
      o.keys = {spec};
      std::vector<unsigned char> records(64 * 100);
      for (size_t i = 0; i < records.size(); ++i) records[i] = static_cast<unsigned char>(i * 2654435761u >> 24);
      try {
        EXPECT_EQ(gsort::sort_records(records.data(), 100, o), 100u) << spec;
      } catch (const gsort::Error& e) {
        ADD_FAILURE() << header << " shows the key \"" << spec << "\", which the library refuses: " << e.what();
      }
    }
  }
  EXPECT_GE(seen, 3u) << "no key specs found in the headers' comments";
}

}  // namespace
