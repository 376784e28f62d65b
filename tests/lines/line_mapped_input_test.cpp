// A line sort of one regular file that fits memory sorts the file's own
// page-cache pages through a mapping instead of reading a copy (the
// reader's map_whole). What must stay as it was: the bytes GNU sort writes;
// a file without its last newline, several inputs, a spilled sort, an input
// whose pages are not cached (--page-cache drop, the default, could not drop
// them after) and an output that is the input itself are read as before;
// a file cut short while it is mapped ends the sort with exit 2 and leaves
// no output.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/line_gen.h"
#include "tests/support/process.h"
#include "tests/support/mapped_input_checks.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr const char* kMappedSays = "lines: the input is mapped, not read";

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// About `bytes` of lines of three comma-separated fields, with duplicates.
std::string comma_lines(Rng& rng, size_t bytes) {
  std::string s;
  while (s.size() < bytes) {
    s += std::to_string(rng.below(5000)) + "," + std::string(rng.below(40), static_cast<char>('a' + rng.below(26))) +
         "," + std::to_string(rng.below(100)) + "\n";
  }
  return s;
}

class LineMappedInput : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/sort", X_OK) != 0) GTEST_SKIP() << "no GNU sort";
    Rng rng(4242);
    write_file(dir.file("in"), comma_lines(rng, 3u << 20));
  }
  ProcessResult gsort(std::vector<std::string> args, const std::string& binary = GSORT_BINARY) {
    args.insert(args.begin(), binary);
    return run_process(args, c_locale());
  }
  std::string gnu(std::vector<std::string> args) {
    args.insert(args.begin(), "/usr/bin/sort");
    return run_process(args, c_locale()).out;
  }
  TempDir dir;
};

TEST_F(LineMappedInput, OneFileInTheCacheIsMappedAndSortsAsGnuSort) {
  for (const std::vector<std::string>& mix : {std::vector<std::string>{}, {"-t,", "-k2,2", "-k1,1n"}, {"-r", "-s", "-k3"}}) {
    std::vector<std::string> args = mix;
    args.insert(args.end(), {"-v", "--page-cache", "keep", dir.file("in"), "-o", dir.file("out")});
    const ProcessResult r = gsort(args);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(contains(r.err, kMappedSays)) << r.err;
    // -v says how long the mapping's index took, and of how many lines.
    const std::string text = read_file(dir.file("in"));
    const auto lines = std::count(text.begin(), text.end(), '\n');
    EXPECT_TRUE(contains(r.err, "lines: " + std::to_string(lines) + " lines indexed (terminators counted in ")) << r.err;
    std::vector<std::string> theirs = mix;
    theirs.push_back(dir.file("in"));
    EXPECT_TRUE(read_file(dir.file("out")) == gnu(theirs)) << join_args(mix);
  }
  // Standard input that is the file, from where its offset stands.
  const ProcessResult r = run_process({"/bin/sh", "-c", "exec 0<\"$1\"; head -c 1000 >/dev/null; \"$2\" -v", "sh",
                                       dir.file("in"), GSORT_BINARY},
                                      c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string rest = read_file(dir.file("in")).substr(1000);
  EXPECT_TRUE(r.out == run_process({"/usr/bin/sort"}, c_locale(rest)).out) << "standard input past its offset";
}

TEST_F(LineMappedInput, WhatCannotBeMappedIsRead) {
  std::string data = read_file(dir.file("in"));
  write_file(dir.file("open"), data.substr(0, data.size() - 1));  // no last newline
  write_file(dir.file("in2"), data.substr(0, 5000));
  const std::vector<std::vector<std::string>> cases = {
      {dir.file("open")}, {dir.file("in"), dir.file("in2")}, {"-S", "1M", "-T", dir.path(), dir.file("in")}};
  for (const std::vector<std::string>& inputs : cases) {
    std::vector<std::string> args = {"-v", "--page-cache", "keep", "-o", dir.file("out")};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const ProcessResult r = gsort(args);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_FALSE(contains(r.err, kMappedSays)) << join_args(inputs);
    std::vector<std::string> theirs;
    for (const std::string& a : inputs) {
      if (a.rfind(dir.path(), 0) == 0 && a != dir.path()) theirs.push_back(a);
    }
    EXPECT_TRUE(read_file(dir.file("out")) == gnu(theirs)) << join_args(inputs);
  }
}

// --page-cache drop (the default) drops the pages a sort brought into the
// cache; a mapping cannot, so a file not in the cache is read.
TEST_F(LineMappedInput, AFileOutOfTheCacheIsReadUnderTheDefaultDrop) {
  if (!drop_from_page_cache(dir.file("in"))) GTEST_SKIP() << "the file system keeps the file's pages in memory";
  const ProcessResult r = gsort({"-v", dir.file("in"), "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(contains(r.err, kMappedSays)) << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == gnu({dir.file("in")}));
  // Cached now, the same file is mapped. Under another program's memory
  // pressure (the suite runs tests side by side) pages may leave the cache
  // between the read and the sort: a few tries, each from a cached file.
  ProcessResult warm;
  for (int attempt = 0; attempt < 3 && !contains(warm.err, kMappedSays); ++attempt) {
    if (!bring_into_page_cache(dir.file("in"))) GTEST_SKIP() << "the file's pages do not stay in the page cache";
    warm = gsort({"-v", dir.file("in"), "-o", dir.file("out")});
    ASSERT_EQ(warm.status(), "exit 0") << warm.err;
  }
  EXPECT_TRUE(contains(warm.err, kMappedSays)) << warm.err;
}

// Written over in place through standard output (1<>): the sort must have
// its whole input before it writes a byte, as GNU sort has.
TEST_F(LineMappedInput, AnOutputThatIsTheInputIsReadFirst) {
  const std::string expected = gnu({dir.file("in")});
  const ProcessResult r = run_process(
      {"/bin/sh", "-c", "\"$1\" -v --page-cache keep \"$2\" 1<> \"$2\"", "sh", GSORT_BINARY, dir.file("in")}, c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(contains(r.err, kMappedSays)) << r.err;
  EXPECT_TRUE(read_file(dir.file("in")) == expected);
}

#ifdef GSORT_HOOKS_BINARY
TEST_F(LineMappedInput, AFileCutShortWhileMappedIsExit2WithNoOutput) {
  expect_cut_short_once_mapped_fails({"--page-cache", "keep"}, dir.file("in"), dir.file("out"));
}
#endif

}  // namespace
}  // namespace gsort_test
