// An in-memory sort of records on the CPU takes one input in the page cache
// through a mapping of it instead of a copy (sort_in_memory's map_input).
// The bytes written are the same as a read's; what is read as before: an
// input out of the cache (--page-cache drop, the default, could not drop
// what a mapping brought in), several inputs, a GPU backend (its copies
// want pinned memory), and standard output that is the input itself. A
// file cut short while mapped ends the sort with exit 2 and no output.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/mapped_input_checks.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr const char* kMappedSays = "input: mapped, not read";

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

class CliMappedInput : public testing::Test {
 protected:
  void SetUp() override {
    Rng rng(77);
    std::string data = rng.bytes(200000 * 100);
    for (size_t i = 0; i < data.size(); i += 100 * 7) data.replace(i, 10, data.substr(0, 10));  // duplicate keys
    write_file(dir.file("in"), data);
    const ProcessResult reference =
        run_gsort({"--format", "gensort", "--page-cache", "keep", "-S", "1M", "-T", dir.path(), dir.file("in")});
    ASSERT_EQ(reference.status(), "exit 0") << reference.err;
    sorted = reference.out;  // spilled: read, never mapped
  }
  ProcessResult sort(std::vector<std::string> args) {
    args.insert(args.begin(), {"-v", "--format", "gensort", "--backend", "cpu"});
    return run_gsort(args);
  }
  TempDir dir;
  std::string sorted;
};

TEST_F(CliMappedInput, OneCachedInputIsMappedAndWritesWhatAReadWrites) {
  for (const std::vector<std::string>& more : {std::vector<std::string>{}, {"-u"}, {"-r", "--verify"}}) {
    std::vector<std::string> args = more;
    args.insert(args.end(), {"--page-cache", "keep", dir.file("in"), "-o", dir.file("out")});
    const ProcessResult r = sort(args);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(contains(r.err, kMappedSays)) << r.err;
    std::vector<std::string> read_args = more;
    read_args.insert(read_args.end(), {"--format", "gensort", "-S", "1M", "-T", dir.path(), dir.file("in")});
    EXPECT_TRUE(read_file(dir.file("out")) == run_gsort(read_args).out) << joined(more);
  }
}

TEST_F(CliMappedInput, WhatCannotBeMappedIsRead) {
  write_file(dir.file("empty"), "");
  ProcessResult r = sort({"--page-cache", "keep", dir.file("in"), dir.file("empty"), "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(contains(r.err, kMappedSays)) << "two inputs";
  EXPECT_TRUE(read_file(dir.file("out")) == sorted);
  // Standard output onto the input itself (1<>): the sort has it all before it writes.
  r = run_process({"/bin/sh", "-c", "\"$1\" -v --format gensort --backend cpu --page-cache keep \"$2\" 1<> \"$2\"",
                   "sh", gsort_argv({}).front(), dir.file("in")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(contains(r.err, kMappedSays)) << r.err;
  EXPECT_TRUE(read_file(dir.file("in")) == sorted);
}

TEST_F(CliMappedInput, AnInputOutOfTheCacheIsReadUnderTheDefaultDrop) {
  if (!drop_from_page_cache(dir.file("in"))) GTEST_SKIP() << "the file system keeps the file's pages in memory";
  const ProcessResult r = sort({dir.file("in"), "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_FALSE(contains(r.err, kMappedSays)) << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == sorted);
}

#if defined(GSORT_HOOKS_BINARY) && GSORT_HAVE_CUDA
// auto on a GPU host (faked: GSORT_TEST_DEVICE_START, a start of a minute)
// sorts a cached input that fits -S on the CPU, from its mapping, without
// starting the device: 4.2M records of 40 bytes, past the size the CPU takes
// for being small (--parallel 1: 4M records a thread).
TEST_F(CliMappedInput, AutoSortsACachedInputOfLargerRecordsOnTheCpuFromItsMapping) {
  write_file(dir.file("big"), Rng(78).bytes(uint64_t{4200000} * 40));
  ProcessOptions o;
  o.env = {"GSORT_TEST_DEVICE_START=60000:ok"};
  o.timeout_s = 50;  // the process must end long before the start would
  const std::vector<std::string> spec = {"--record-size", "40", "--key", "0:u64", "--parallel", "1"};
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-v", "--page-cache", "keep", dir.file("big"), "-o",
                                   dir.file("out")};
  argv.insert(argv.end(), spec.begin(), spec.end());
  const ProcessResult r = run_process(argv, o);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(contains(r.err, "the CPU backend sorts it from its mapping")) << r.err;
  EXPECT_TRUE(contains(r.err, kMappedSays)) << r.err;
  std::vector<std::string> check = {"-c", dir.file("out")};
  check.insert(check.end(), spec.begin(), spec.end());
  EXPECT_EQ(run_gsort(check).status(), "exit 0") << "the output is in order";
}

#endif

#ifdef GSORT_HOOKS_BINARY
TEST_F(CliMappedInput, AFileCutShortWhileMappedIsExit2WithNoOutput) {
  expect_cut_short_once_mapped_fails({"--format", "gensort", "--backend", "cpu", "--page-cache", "keep"},
                                     dir.file("in"), dir.file("out"));
}
#endif

}  // namespace
}  // namespace gsort_test
