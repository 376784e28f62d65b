// Resource limits (issue 11): a tiny -S is raised to a floor and keeps its
// memory, runs on disk stay bounded by merging early, any number of inputs
// sorts and merges under a small open-file limit (--batch-size), --parallel
// is capped, and a file that changes while it is read is an error on both
// the in-memory and the spilled path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"


namespace gsort_test {
namespace {

// gensort's layout: 100-byte records, a 10-byte key at offset 0.
const RefSpec kGensort = {100, {RefKey{0, 10, RefKind::kBytes, false, false}}, false, false};

std::string records(size_t n, uint64_t seed) {
  Rng rng(seed);
  return rng.bytes(n * 100);
}

std::vector<std::string> gensort(std::vector<std::string> args) {
  args.insert(args.begin(), {"--format", "gensort"});
  return args;
}

TEST(CliLimits, TinyMemoryIsRaisedAndStaysSmall) {
  TempDir dir;
  const std::string data = records(200000, 1);  // 20 MB: 200,000 runs at -S 1b before
  write_file(dir.file("in"), data);
  ProcessOptions options;
  options.timeout_s = 60;
  const ProcessResult r = run_gsort(
      gensort({"-S", "1b", "-v", "--parallel", "2", "--backend", "cpu", "-T", dir.subdir("tmp"), "--stats",
               dir.file("s.json"), "-o", dir.file("out"), dir.file("in")}),
      options);
  ASSERT_EQ(r.status(), "exit 0") << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("memory: -S 1 bytes raised to the minimum of 262144 bytes"), std::string::npos) << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kGensort), 100), "");
  // 256 KiB of budget: the process (code, threads, buffers) stays small. Two
  // threads, as on the CI machine: each thread adds its own buffers and
  // allocator arena (63 MB peak with 16 threads on the H100 host). The CPU
  // backend: a GPU's runtime alone is larger (138 MB on the H100 host).
  // gsort's own peak (--stats: VmHWM); the child's rusage would also hold
  // this test process's size at the exec.
  const uint64_t peak_kib =
      nlohmann::json::parse(read_file(dir.file("s.json")))["memory"]["peak_host_bytes"].get<uint64_t>() >> 10;
  EXPECT_GT(peak_kib, 0u);
#if GSORT_TEST_UNDER_ASAN
  // AddressSanitizer's shadow memory and quarantine dwarf a 256 KiB budget.
  GTEST_SKIP() << "peak RSS not bounded under AddressSanitizer (" << peak_kib << " KiB)";
#endif
  EXPECT_LT(peak_kib, 40u * 1024) << "peak RSS in KiB";
}

TEST(CliLimits, BudgetBelowWhatTheRecordsNeedIsRaisedWithAWarning) {
  TempDir dir;
  const uint32_t rs = 4u << 20;
  Rng rng(2);
  const std::string data = rng.bytes(3ull * rs);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort({"--record-size", std::to_string(rs), "-S", "4M", "-T", dir.path(), "-o",
                                     dir.file("out"), dir.file("in")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("gsort: warning: -S 4194304 bytes raised to the minimum of "), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data, {rs, {}, false, false}));
}

TEST(CliLimits, ParallelIsCapped) {
  TempDir dir;
  const std::string data = records(20000, 3);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(gensort({"--parallel", "4096", "-v", "-o", dir.file("out"), dir.file("in")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("threads: --parallel 4096 capped at "), std::string::npos) << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kGensort), 100), "");
}

// 300 inputs under ulimit -n 64: sorted (one input open at a time), and
// merged (-m, in passes of a bounded fan-in through temporary runs).
TEST(CliLimits, ThreeHundredInputsUnderAnOpenFileLimitOf64) {
  TempDir dir;
  std::vector<std::string> names;
  std::string all, sorted_all;
  for (int i = 0; i < 300; ++i) {
    const std::string part = records(50, 100 + i);
    names.push_back(dir.file("part" + std::to_string(i)));
    write_file(names.back(), part);
    write_file(names.back() + ".sorted", reference_sort(part, kGensort));
    all += part;
  }
  ProcessOptions limited;
  limited.open_file_limit = 64;
  std::vector<std::string> args = gensort({"-T", dir.subdir("tmp"), "-o", dir.file("sorted")});
  args.insert(args.end(), names.begin(), names.end());
  ProcessResult r = run_gsort(args, limited);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string want = reference_sort(all, kGensort);
  EXPECT_EQ(describe_difference(read_file(dir.file("sorted")), want, 100), "");

  args = gensort({"-m", "-v", "-T", dir.path() + "/tmp", "-o", dir.file("merged")});
  for (const std::string& n : names) args.push_back(n + ".sorted");
  r = run_gsort(args, limited);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("merged")), want) << "a merge of sorted parts is the stable sort of all";
  EXPECT_NE(r.err.find("early"), std::string::npos) << "300 inputs take more than one merge: " << r.err;
  EXPECT_EQ(list_tree(dir.path() + "/tmp"), std::vector<std::string>{});
}

// -S 4M over 100 MB under ulimit -n 32 makes about 70 runs: more than the
// open-file limit allows at once, so they are merged early, and no more
// than the limit ever wait.
TEST(CliLimits, ManyRunsUnderAnOpenFileLimitOf32) {
  TempDir dir;
  const std::string data = records(1000000, 4);
  write_file(dir.file("in"), data);
  ProcessOptions limited;
  limited.open_file_limit = 32;
  // The CPU backend: a GPU host's device tier would hold the whole input.
  const ProcessResult r = run_gsort(gensort({"-S", "4M", "--backend", "cpu", "-v", "-T", dir.subdir("tmp"), "-o",
                                             dir.file("out"), dir.file("in")}),
                                    limited);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("early"), std::string::npos) << r.err;
  // The reference: the same sort in memory (byte-identical: the sort is stable).
  const ProcessResult ref = run_gsort(gensort({"-S", "1G", "-o", dir.file("ref"), dir.file("in")}));
  ASSERT_EQ(ref.status(), "exit 0") << ref.err;
  EXPECT_TRUE(read_file(dir.file("out")) == read_file(dir.file("ref"))) << "outputs differ";
  EXPECT_EQ(list_tree(dir.path() + "/tmp"), std::vector<std::string>{});
}

TEST(CliLimits, BatchSizeBoundsTheFanIn) {
  TempDir dir;
  const std::string data = records(30000, 5);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(gensort({"-S", "256K", "--batch-size", "2", "-v", "-T", dir.path(), "-o",
                                             dir.file("out"), dir.file("in")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("merge fan-in 2 ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--batch-size 2)"), std::string::npos) << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kGensort), 100), "");
}

// A file that shrinks while it is read fails, in memory and spilled alike
// (the spilled path used to exit 0 with what it had read).
TEST(CliLimits, AFileThatShrinksWhileReadFailsOnEveryPath) {
  for (const char* memory : {"1G", "256K"}) {
    SCOPED_TRACE(std::string("-S ") + memory);
    TempDir dir;
    write_file(dir.file("in"), records(20000, 6));
    ProcessOptions hook;
    hook.env = {"GSORT_TEST_TRUNCATE_INPUT=" + dir.file("in") + ":1000000:" + (memory[1] == 'G' ? "0" : "1")};
    const std::vector<std::string> args = {"--format", "gensort", "-S", memory, "-T", dir.path(),
                                           "-o", dir.file("out"), dir.file("in")};
    std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessResult r = run_process(argv, hook);
    EXPECT_EQ(r.status(), "exit 2") << r.err;
    EXPECT_EQ(r.err, "gsort: " + dir.file("in") +
                         ": the file shrank while it was being read (2000000 bytes when gsort opened it, 1000000 "
                         "now); sort a copy that does not change\n");
    EXPECT_FALSE(path_exists(dir.file("out")));
  }
}

}  // namespace
}  // namespace gsort_test

namespace gsort_test {
namespace {

// gsort under `ulimit -v KiB`: what it could not have is one line that
// names it and what to give, exit 2, within a bound (never a hang), and
// the destination as it was.
// `stack` is a `ulimit -s` value, or empty to keep the caller's.
ProcessResult under_address_limit(long kib, std::vector<std::string> args, const std::string& stack = "") {
  const std::string script = (stack.empty() ? "" : "ulimit -s " + stack + " && ") + "ulimit -v " +
                             std::to_string(kib) + " && exec \"$0\" \"$@\"";
  std::vector<std::string> argv = {"/bin/sh", "-c", script, GSORT_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout_s = 60;
  return run_process(argv, options);
}

TEST(CliLimits, ThreadsThatCannotStartAreOneErrorNotAHang) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  TempDir dir;
  write_file(dir.file("in"), records(1000, 3));
  write_file(dir.file("out"), "old");
  const ProcessResult r = under_address_limit(
      32 * 1024, gensort({"--parallel", "64", "-T", dir.subdir("tmp"), "-o", dir.file("out"), dir.file("in")}));
  ASSERT_EQ(r.status(), "exit 2") << r.err;
  EXPECT_EQ(r.err.rfind("gsort: cannot start a thread", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("--parallel"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir.file("out")), "old");
}

TEST(CliLimits, MemoryThatCannotBeHadNamesItsSizeAndS) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  TempDir dir;
  write_file(dir.file("in"), records(1500000, 4));  // 150 MB, sorted in memory under -S 1G
  write_file(dir.file("out"), "old");
  const ProcessResult r = under_address_limit(
      128 * 1024,
      gensort({"-S", "1G", "--parallel", "2", "-T", dir.subdir("tmp"), "-o", dir.file("out"), dir.file("in")}));
  ASSERT_EQ(r.status(), "exit 2") << r.err;
  EXPECT_EQ(r.err.rfind("gsort: cannot allocate ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("give a smaller -S"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(read_file(dir.file("out")), "old");
}

// Without -S, the budget fits what ulimit -v leaves, as GNU sort's default
// does: 60 MB sorts under 150 MB of address space, as records and as lines
// (the default was half the memory whatever the limit, and the input did
// not fit).
TEST(CliLimits, DefaultBudgetFitsUnderUlimitV) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  TempDir dir;
  const std::string data = records(600000, 5);
  write_file(dir.file("in"), data);
  const ProcessResult r =
      under_address_limit(150 * 1024, gensort({"-T", dir.path(), "-o", dir.file("out"), dir.file("in")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kGensort)) << "records";
  std::string lines;
  Rng rng(6);
  while (lines.size() < (60u << 20)) lines += std::to_string(rng.below(1000000000)) + " line\n";
  write_file(dir.file("lines"), lines);
  const ProcessResult l =
      under_address_limit(150 * 1024, {"-T", dir.path(), "-o", dir.file("sorted"), dir.file("lines")});
  ASSERT_EQ(l.status(), "exit 0") << l.err;
  ProcessOptions c_locale;
  c_locale.env = {"LC_ALL=C"};
  const ProcessResult gnu = run_process({"/usr/bin/sort", dir.file("lines")}, c_locale);
  EXPECT_TRUE(read_file(dir.file("sorted")) == gnu.out) << "lines";
}

// Under ulimit -v, a thread's stack does not take RLIMIT_STACK's size:
// with `ulimit -s unlimited` glibc gives each 32 MiB, and a dozen threads
// (the pool, readers, spill writers) took more than the sort's memory.
TEST(CliLimits, ThreadStacksFitUnderUlimitVWhateverUlimitS) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  TempDir dir;
  const std::string data = records(600000, 7);
  write_file(dir.file("in"), data);
  for (const char* stack : {"unlimited", "65536"}) {
    const ProcessResult r = under_address_limit(
        150 * 1024, gensort({"--parallel", "4", "-T", dir.path(), "-o", dir.file("out"), dir.file("in")}), stack);
    ASSERT_EQ(r.status(), "exit 0") << "ulimit -s " << stack << ": " << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kGensort)) << "ulimit -s " << stack;
  }
}

}  // namespace
}  // namespace gsort_test
