// The lines' final merge on every core (issue 37, src/lines/merge_in_ranges.h):
// gsort-test-hooks forced to merge spilled runs of lines in ranges
// (GSORT_TEST_FINAL_MERGE=ranges:N) writes the bytes it writes when forced
// through the batches, and GNU sort's, over heavy duplicates, one line
// repeated, lines longer than a read buffer, empty lines, -r, -s with a
// key, a CSV key mix, -f, -z and compressed runs; -u and --verify keep the
// batches; a damaged run is exit 2 with nothing left, either way. Runs held
// outside the temporary directory (src/merge/held_runs.h), alone or
// after runs in files, give the same bytes every way: in the host's memory
// (a test's store, here) and
// in the GPU's (skipped without one), where a failed device allocation
// leaves the runs to the temporary directory. An output that cannot be
// mapped (a pipe, a compressed file, one past the page cache) takes the
// ranges in order through its stream.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/forced_merge.h"
#include "tests/support/line_gen.h"
#include "tests/support/process.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"
#include "tests/support/zstd_decode.h"

namespace gsort_test {
namespace {

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// gsort-test-hooks on dir/in with `args` under -S 4M, the final merge
// forced `how` ("batches" or "ranges:N"), into dir/`output`; lines up to 1 MiB.
ForcedMerge sort_with(const TempDir& dir, const std::string& how, std::vector<std::string> args,
                      const std::vector<std::string>& env = {}, const std::string& output = "out") {
  args.insert(args.begin(), {"-S", "4M"});
  return sort_forcing_merge(dir, how, args, env, output);
}

std::string gnu_sort(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "/usr/bin/sort");
  args.push_back(dir.file("in"));
  const ProcessResult r = run_process(args, c_locale());
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  return r.out;
}

// Lines of 1 to 6 comma-separated fields drawn from `distinct` values, one
// in 500 longer than the merge's read buffer (256 KiB), some empty.
std::string csv_lines(Rng& rng, size_t bytes, uint32_t distinct, char eol) {
  std::string s;
  while (s.size() < bytes) {
    const uint64_t v = rng.below(distinct);
    if (v % 500 == 7) {
      s += std::string(300000 + rng.below(1000), static_cast<char>('a' + v % 3));
    } else if (v % 97 != 3) {
      for (uint64_t f = 0, n = 1 + v % 6; f < n; ++f) {
        s += (f ? "," : "") + std::to_string((v * 7919 + f * 31) % 1000) + (f % 2 ? "x" : "");
      }
    }
    s += eol;
  }
  return s;
}

bool have_gnu_sort() { return ::access("/usr/bin/sort", X_OK) == 0; }

TEST(LineParallelMerge, SameBytesAsTheBatchesAndGnuSort) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  Rng rng(3737);
  struct Data {
    const char* name;
    uint32_t distinct;
  };
  const std::vector<Data> datas = {{"heavy duplicates", 9}, {"one line", 1}, {"many lines", 1000000}};
  for (size_t di = 0; di < datas.size(); ++di) {
    const Data d = datas[di];
    const std::vector<std::vector<std::string>> mixes = {
        {}, {"-r"}, {"-s", "-t,", "-k2,2"}, {"-t,", "-k2,2", "-k1,1n"}, {"-f", "--compress-temp=on"}, {"-z"}};
    for (size_t m = 0; m < mixes.size(); ++m) {
      if (!crossed_in_this_build(m, di, datas.size())) continue;  // sanitizers: each mix over one of the data
      const std::vector<std::string>& mix = mixes[m];
      const bool z = !mix.empty() && mix.front() == "-z";
      write_file(dir.file("in"), csv_lines(rng, 6u << 20, d.distinct, z ? '\0' : '\n'));
      SCOPED_TRACE(std::string(d.name) + ", " + command_line(mix));
      std::vector<std::string> gnu_args;
      for (const std::string& a : mix) {
        if (a.rfind("--compress", 0) != 0) gnu_args.push_back(a);
      }
      const std::string expected = gnu_sort(dir, gnu_args);
      const ForcedMerge batches = sort_with(dir, "batches", mix);
      ASSERT_EQ(batches.result.status(), "exit 0") << batches.result.err;
      EXPECT_TRUE(batches.out == expected) << "the batches differ from GNU sort";
      EXPECT_FALSE(contains(batches.result.err, "gsort: final merge: ")) << batches.result.err;
      const ForcedMerge ranges = sort_with(dir, "ranges:13", mix);
      ASSERT_EQ(ranges.result.status(), "exit 0") << ranges.result.err;
      EXPECT_TRUE(ranges.out == expected) << "the ranges differ from GNU sort";
      EXPECT_TRUE(contains(ranges.result.err, "gsort: final merge: ")) << ranges.result.err;
      EXPECT_TRUE(contains(ranges.result.err, " ranges of ")) << ranges.result.err;
      EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out
    }
  }
}

// Standard output (a pipe) and a compressed output cannot be mapped: the
// ranges are merged into slots and written in order through the stream.
TEST(LineParallelMerge, AnOutputThatIsNotMappedTakesTheRangesInOrder) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  Rng rng(3741);
  size_t round = 0;
  for (const uint32_t distinct : {9u, 1000000u}) {
    write_file(dir.file("in"), csv_lines(rng, 6u << 20, distinct, '\n'));
    for (const std::vector<std::string>& mix : {std::vector<std::string>{}, {"-t,", "-k2,2", "-k1,1n"}}) {
      SCOPED_TRACE(std::to_string(distinct) + " distinct, " + command_line(mix));
      const std::string expected = gnu_sort(dir, mix);
      const std::vector<const char*> hows = {"ranges:1", "ranges:13", "planned"};
      for (size_t h = 0; h < hows.size(); ++h) {
        if (!crossed_in_this_build(round, h, hows.size())) continue;  // sanitizers: one way each, in turn
        const char* how = hows[h];
        std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-S", "4M", "-T", dir.path(), "-v"};
        argv.insert(argv.end(), mix.begin(), mix.end());
        argv.push_back(dir.file("in"));
        ProcessOptions options = c_locale();
        options.env.push_back(std::string("GSORT_TEST_FINAL_MERGE=") + how);
        // Through `| cat`: standard output a pipe (a regular file would be mapped).
        std::vector<std::string> through_cat = {"/bin/sh", "-c", "\"$@\" | cat", "sh"};
        through_cat.insert(through_cat.end(), argv.begin(), argv.end());
        const ProcessResult piped = run_process(through_cat, options);
        ASSERT_EQ(piped.status(), "exit 0") << piped.err;
        EXPECT_TRUE(piped.out == expected) << how << ": standard output differs from GNU sort";
        const bool forced = std::string(how) != "planned";  // the plan finds 6 MB too small for ranges
        EXPECT_EQ(contains(piped.err, "written in order through one stream"), forced) << piped.err;
        const ForcedMerge packed = sort_with(dir, how, mix, {}, "out.zst");
        ASSERT_EQ(packed.result.status(), "exit 0") << packed.result.err;
        EXPECT_EQ(contains(packed.result.err, "written in order through one stream"), forced) << packed.result.err;
        EXPECT_TRUE(zstd_decode(read_file(dir.file("out.zst"))) == expected)
            << how << ": the compressed output differs from GNU sort";
        EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out.zst
        std::remove(dir.file("out.zst").c_str());
      }
      ++round;
    }
  }
}

// An output larger than the page cache takes (a test's room of 1000
// bytes) is written around the cache, not mapped: the ranges go through
// its stream, and the file is GNU sort's, whole.
TEST(LineParallelMerge, AnOutputPastThePageCacheIsWrittenAroundIt) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  Rng rng(3743);
  write_file(dir.file("in"), csv_lines(rng, 6u << 20, 1000000, '\n'));
  const std::string expected = gnu_sort(dir, {});
  for (const char* how : {"ranges:5", "batches"}) {
    SCOPED_TRACE(how);
    const ForcedMerge run = sort_with(dir, how, {}, {"GSORT_TEST_TEMP_DEVICE=1000"});
    ASSERT_EQ(run.result.status(), "exit 0") << run.result.err;
    EXPECT_TRUE(run.out == expected) << "the output differs from GNU sort";
    EXPECT_FALSE(contains(run.result.err, "output: filled through a mapping")) << run.result.err;
    if (!on_tmpfs(dir.path())) {
      EXPECT_TRUE(contains(run.result.err, "output: written around the page cache (O_DIRECT)")) << run.result.err;
    }
    EXPECT_EQ(contains(run.result.err, "written in order through one stream"), std::string(how) != "batches")
        << run.result.err;
    EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out
  }
}

// -u takes the ranges (whole keys in each, the gaps closed after), by the
// whole line and by keys whose equal values span many ranges; --verify
// keeps the batches, which count its lines.
TEST(LineParallelMerge, UniqueTakesTheRangesAndVerifyKeepsTheBatches) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  Rng rng(3738);
  write_file(dir.file("in"), csv_lines(rng, 2u << 20, 50, '\n'));
  for (const std::vector<std::string>& keys : std::vector<std::vector<std::string>>{
           {"-u"}, {"-u", "-t,", "-k2,2"}, {"-u", "-t,", "-k1,1", "-k3,3r"}, {"-u", "-t,", "-k9,9"}}) {
    const ForcedMerge unique = sort_with(dir, "ranges:7", keys);
    ASSERT_EQ(unique.result.status(), "exit 0") << unique.result.err;
    EXPECT_TRUE(unique.out == gnu_sort(dir, keys)) << keys.back() << ": differs from sort's";
    EXPECT_TRUE(contains(unique.result.err, "gsort: final merge: ")) << unique.result.err;
    EXPECT_FALSE(contains(unique.result.err, "not in ranges")) << unique.result.err;
  }
  const ForcedMerge verified = sort_with(dir, "ranges:7", {"--verify"});
  ASSERT_EQ(verified.result.status(), "exit 0") << verified.result.err;
  EXPECT_TRUE(verified.out == gnu_sort(dir, {}));
  EXPECT_TRUE(contains(verified.result.err, "not in ranges (--verify")) << verified.result.err;
}

TEST(LineParallelMerge, ALargeSortTakesTheRangesByItself) {
  TempDir dir;
  Rng rng(3739);
  write_file(dir.file("in"), csv_lines(rng, 24u << 20, 1000000, '\n'));
  const ProcessResult r = run_process({GSORT_BINARY, "-S", "8M", "-v", "-T", dir.path(), dir.file("in"), "-o",
                                       dir.file("out")},
                                      c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(contains(r.err, " ranges of ")) << r.err;
  EXPECT_TRUE(contains(r.err, "merge: ranges")) << r.err;
  const ProcessResult check = run_process({GSORT_BINARY, "-c", dir.file("out")}, c_locale());
  EXPECT_EQ(check.status(), "exit 0") << check.err;
  EXPECT_EQ(read_file(dir.file("out")).size(), read_file(dir.file("in")).size());
}

TEST(LineParallelMerge, ADamagedRunIsExit2WithNothingLeft) {
  TempDir dir;
  Rng rng(3740);
  write_file(dir.file("in"), csv_lines(rng, 3u << 20, 1000000, '\n'));
  // out is mapped; out.zst is a stream, which the ranges reach in order.
  for (const char* output : {"out", "out.zst"}) {
    for (const char* how : {"batches", "ranges:9"}) {
      for (const char* temp : {"--compress-temp=off", "--compress-temp=on"}) {
        SCOPED_TRACE(std::string(output) + ", " + how + ", " + temp);
        const ForcedMerge run = sort_with(dir, how, {temp}, {"GSORT_TEST_CORRUPT_RUN=1:0"}, output);
        EXPECT_EQ(run.result.status(), "exit 2") << run.result.err;
        EXPECT_TRUE(contains(run.result.err, "is corrupted")) << run.result.err;
        EXPECT_FALSE(path_exists(dir.file(output)));
        EXPECT_EQ(count_files(dir.path()), 1u) << "files left behind";  // in
      }
    }
  }
}

TEST(LineHeldRuns, SameBytesAsGnuSortEveryWay) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  Rng rng(3741);
  const std::vector<std::vector<std::string>> mixes = {{}, {"-r"}, {"-u"}, {"--verify"}, {"-s", "-t,", "-k2,2"}, {"-z"}};
  for (size_t m = 0; m < mixes.size(); ++m) {
    const std::vector<std::string>& mix = mixes[m];
    const std::string first = mix.empty() ? "" : mix.front();
    write_file(dir.file("in"), csv_lines(rng, 6u << 20, 5000, first == "-z" ? '\0' : '\n'));
    const std::string expected = gnu_sort(dir, first == "--verify" ? std::vector<std::string>{} : mix);
    // From the first run on, or from the third (the two before it in files, as when the device starts late).
    const std::vector<const char*> afters = {"0", "2"}, hows = {"batches", "ranges:11", "planned"};
    for (size_t a = 0; a < afters.size(); ++a) {
      const char* after = afters[a];
      const std::vector<std::string> hold = {"GSORT_TEST_HOLD_LINE_RUNS_FROM=0", "GSORT_TEST_HOLD_LINE_RUNS_IN_HOST=1",
                                             std::string("GSORT_TEST_HOLD_LINE_RUNS_AFTER=") + after};
      for (size_t h = 0; h < hows.size(); ++h) {
        // In the sanitizer build each mix is held one way, in turn.
        if (!crossed_in_this_build(m, a * hows.size() + h, afters.size() * hows.size())) continue;
        const char* how = hows[h];
        SCOPED_TRACE(command_line(mix) + ", held from run " + after + ", " + how);
        const ForcedMerge run = sort_with(dir, how, mix, hold);
        ASSERT_EQ(run.result.status(), "exit 0") << run.result.err;
        EXPECT_TRUE(run.out == expected) << "the held runs' output differs from GNU sort";
        EXPECT_TRUE(contains(run.result.err, "lines: runs held in the host's memory")) << run.result.err;
        EXPECT_FALSE(contains(run.result.err, "gathered where they are held")) << "the host's store gathers nothing";
        EXPECT_TRUE(contains(run.result.err, std::string("from run ") + (after[0] == '0' ? "1" : "3") + " on"))
            << run.result.err;
        EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out
      }
    }
  }
}

TEST(LineHeldRuns, TheGpusMemoryHoldsTheRunsOrLeavesThemToTheDisk) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no GNU sort";
  TempDir dir;
  write_file(dir.file("probe"), "b\na\n");
  const ProcessResult probe =
      run_process({GSORT_BINARY, "--backend", "gpu", dir.file("probe"), "-o", dir.file("out")}, c_locale());
  if (probe.exit_code != 0) GTEST_SKIP() << "no usable GPU: " << probe.err;
  Rng rng(3742);
  write_file(dir.file("in"), csv_lines(rng, 8u << 20, 1000000, '\n'));
  const std::string expected = gnu_sort(dir, {});
  for (const char* how : {"batches", "ranges:9", "planned"}) {
    SCOPED_TRACE(how);
    const ForcedMerge run = sort_with(dir, how, {}, {"GSORT_TEST_HOLD_LINE_RUNS_FROM=0"});
    ASSERT_EQ(run.result.status(), "exit 0") << run.result.err;
    EXPECT_TRUE(run.out == expected) << "the device's runs give another output";
    EXPECT_TRUE(contains(run.result.err, "lines: runs held in the GPU's memory (device 0)")) << run.result.err;
    EXPECT_TRUE(contains(run.result.err, "held runs gathered where they are held")) << run.result.err;
    EXPECT_EQ(count_files(dir.path()), 3u) << "files left behind";  // probe, in, out
  }
  // The store's allocation fails: the runs go to the temporary directory, with the same bytes.
  const ForcedMerge fallback =
      sort_with(dir, "planned", {}, {"GSORT_TEST_HOLD_LINE_RUNS_FROM=0", "GSORT_TEST_FAIL_DEVICE_ALLOC=1"});
  ASSERT_EQ(fallback.result.status(), "exit 0") << fallback.result.err;
  EXPECT_TRUE(fallback.out == expected);
  EXPECT_TRUE(contains(fallback.result.err, "lines: runs in the temporary directory, not in the GPU's memory ("))
      << fallback.result.err;
}

}  // namespace
}  // namespace gsort_test
