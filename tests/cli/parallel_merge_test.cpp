// The final merge on every core (issue 36): gsort-test-hooks forced to
// merge in key ranges (GSORT_TEST_FINAL_MERGE=ranges:N) writes the bytes it
// writes when forced through the run merger's batches, and the reference
// sort's, over heavy duplicates, one key, -u across the ranges, -s, -r, a
// two-key layout and compressed runs, with --verify; -v says how the final
// merge went; a large enough sort takes the ranges by itself; a damaged run
// is exit 2 with one line and nothing left behind, either way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/forced_merge.h"
#include "tests/support/reference_sort.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// 16-byte records, a u32 key at 0, the record's number at 4.
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// gsort-test-hooks on dir/in with `args`, the final merge forced `how`
// ("batches" or "ranges:N"), into dir/out; the CPU backend: a GPU host's
// device tier would hold the whole input.
ForcedMerge sort_with(const TempDir& dir, const std::string& how, std::vector<std::string> args,
                      const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), {"--backend", "cpu"});
  return sort_forcing_merge(dir, how, args, env);
}

std::vector<std::string> spec_args(const RefSpec& spec, std::vector<std::string> more) {
  std::vector<std::string> args = spec.args();
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(ParallelFinalMerge, SameBytesAsTheBatchesAndTheReference) {
  TempDir dir;
  Rng rng(36);
  const RefSpec reverse = {16, kSpec.keys, true, false};
  const RefSpec unique = {16, kSpec.keys, false, true};
  const RefSpec unique_reverse = {16, kSpec.keys, true, true};
  const RefSpec two_keys = {16,
                            {RefKey{4, 1, RefKind::kUnsigned, false, true}, RefKey{0, 4, RefKind::kUnsigned, false, false}},
                            false, false};
  struct Data {
    const char* name;
    uint32_t distinct;
  };
  const std::vector<Data> datas = {{"heavy duplicates", 7}, {"one key", 1}, {"many keys", 200000}};
  for (size_t di = 0; di < datas.size(); ++di) {
    const Data d = datas[di];
    const std::string data = numbered_u32_records(rng, 150000, d.distinct, true);  // 2.4 MB
    write_file(dir.file("in"), data);
    size_t mix = 0;  // spec and temp
    for (const RefSpec* spec : {&kSpec, &reverse, &unique, &unique_reverse, &two_keys}) {
      for (const char* temp : {"--compress-temp=off", "--compress-temp=on"}) {
        if (!crossed_in_this_build(mix++, di, datas.size())) continue;  // sanitizers: each mix over one of the data
        SCOPED_TRACE(std::string(d.name) + ", " + command_line(spec->args()) + ", " + temp);
        const std::string expected = reference_sort(data, *spec);
        const std::vector<std::string> args = spec_args(*spec, {"-S", "1M", "-s", "--verify", temp});
        const ForcedMerge batches = sort_with(dir, "batches", args);
        ASSERT_EQ(batches.result.status(), "exit 0") << batches.result.err;
        EXPECT_TRUE(batches.out == expected);
        EXPECT_FALSE(contains(batches.result.err, "gsort: final merge: ")) << batches.result.err;
        const ForcedMerge ranges = sort_with(dir, "ranges:23", args);
        ASSERT_EQ(ranges.result.status(), "exit 0") << ranges.result.err;
        EXPECT_TRUE(ranges.out == batches.out) << "the ranges differ from the batches";
        EXPECT_TRUE(contains(ranges.result.err, "gsort: final merge: ")) << ranges.result.err;
        EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out
      }
    }
  }
}

TEST(ParallelFinalMerge, ALargeSortTakesTheRangesByItself) {
  TempDir dir;
  Rng rng(37);
  const std::string data = numbered_u32_records(rng, 1200000, 1u << 30);  // 19 MB
  write_file(dir.file("in"), data);
  // The CPU backend: a GPU host's device tier would hold the whole input.
  const std::vector<std::string> args = {"-S", "8M", "--backend", "cpu", "-v", "-T", dir.path(), dir.file("in"),
                                         "-o", dir.file("out")};
  const ProcessResult r = run_process(gsort_argv(spec_args(kSpec, args)), ProcessOptions{});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kSpec));
  EXPECT_TRUE(contains(r.err, "gsort: final merge: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "merge: ranges")) << r.err;
}

TEST(ParallelFinalMerge, ADamagedRunIsExit2WithNothingLeft) {
  TempDir dir;
  Rng rng(38);
  const std::string data = numbered_u32_records(rng, 150000, 1000);
  write_file(dir.file("in"), data);
  for (const char* how : {"batches", "ranges:9"}) {
    for (const char* temp : {"--compress-temp=off", "--compress-temp=on"}) {
      SCOPED_TRACE(std::string(how) + ", " + temp);
      const ForcedMerge run =
          sort_with(dir, how, spec_args(kSpec, {"-S", "1M", temp}), {"GSORT_TEST_CORRUPT_RUN=1:0"});
      EXPECT_EQ(run.result.status(), "exit 2") << run.result.err;
      EXPECT_TRUE(contains(run.result.err, "gsort: run file ")) << run.result.err;
      EXPECT_TRUE(contains(run.result.err, "is corrupted")) << run.result.err;
      EXPECT_FALSE(path_exists(dir.file("out")));
      EXPECT_EQ(count_files(dir.path()), 1u) << "files left behind";  // in
    }
  }
}

TEST(ParallelFinalMerge, VerifyCatchesAFaultInTheRanges) {
  TempDir dir;
  Rng rng(39);
  write_file(dir.file("in"), numbered_u32_records(rng, 150000, 1000));
  const ForcedMerge run = sort_with(dir, "ranges:9", spec_args(kSpec, {"-S", "1M", "--verify"}),
                            {"GSORT_TEST_CORRUPT_OUTPUT=70000"});
  EXPECT_EQ(run.result.status(), "exit 2") << run.result.err;
  EXPECT_TRUE(contains(run.result.err, "gsort: verification failed")) << run.result.err;
  EXPECT_FALSE(path_exists(dir.file("out")));
}

}  // namespace
}  // namespace gsort_test
