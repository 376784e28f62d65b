// Ties, through the gsort binary against GNU sort (LC_ALL=C): lines whose
// keys tie in their first 8, 16 and 64 bytes, few distinct lines, all lines
// equal, under keys that end in the tie, reach past it, or are decided by
// a later key or the last resort; -s, -u, -r. In memory, spilled into
// runs (-S 1M), and through the device tier: every run held in the
// GPU's memory where one is usable, else in the host's, which stands in
// for it (gsort-test-hooks). The outputs must be byte-identical.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/forced_merge.h"
#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr size_t kLines = 30000;
const std::string kPad(60, 'p');  // every input over 2 MB: -S 1M spills it double-buffered

// Lines "PREFIX SUFFIX,NUMBER,TAIL": a prefix of `common` bytes every line
// shares, then one of four suffixes, a number of few values and a tail.
std::string common_prefix_lines(Rng& rng, size_t common) {
  const std::string prefix = rng.bytes(common);
  std::string out;
  for (size_t i = 0; i < kLines; ++i) {
    std::string p = prefix;
    for (char& c : p) c = static_cast<char>('a' + static_cast<uint8_t>(c) % 26);  // no separator, no newline
    out += p + static_cast<char>('w' + rng.below(4)) + ',' + std::to_string(rng.below(7) * 10) + ',' +
           std::to_string(rng.below(1000)) + kPad + '\n';
  }
  return out;
}

std::string few_distinct_lines(Rng& rng) {
  const std::vector<std::string> pool = {"b,3,x", "a,10,y", "b,3,x", "a,2,z", "c,10,a"};
  std::string out;
  for (size_t i = 0; i < kLines; ++i) out += pool[rng.below(pool.size())] + kPad + '\n';
  return out;
}

std::string all_equal_lines() {
  std::string out;
  for (size_t i = 0; i < kLines; ++i) out += "same,1,line" + kPad + '\n';
  return out;
}

const std::vector<std::vector<std::string>> kArgSets = {
    {},
    {"-t,", "-k1,1"},
    {"-t,", "-k1,1", "-k2,2n"},
    {"-t,", "-k2,2n", "-k1,1r"},
    {"-s", "-t,", "-k1,1"},
    {"-u", "-t,", "-k1,1"},
    {"-r"},
};

std::string gnu_sort(const std::vector<std::string>& args, const std::string& input) {
  std::vector<std::string> argv = {"/usr/bin/sort"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(input);
  const ProcessResult r = run_process(argv, c_locale());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// Every input and argument set through gsort with `way` (its options),
// against GNU sort; `held`: every run held by the device tier, in the
// host's memory unless `on_gpu`.
void against_gnu_sort(const std::vector<std::string>& way, bool held = false, bool on_gpu = false) {
  TempDir dir;
  Rng rng(53);
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"ties in 8 bytes", common_prefix_lines(rng, 8)},
      {"ties in 16 bytes", common_prefix_lines(rng, 16)},
      {"ties in 64 bytes", common_prefix_lines(rng, 64)},
      {"few distinct", few_distinct_lines(rng)},
      {"all equal", all_equal_lines()},
  };
  std::vector<std::string> env;
  if (held) env = {"GSORT_TEST_HOLD_LINE_RUNS_FROM=0"};
  if (held && !on_gpu) env.push_back("GSORT_TEST_HOLD_LINE_RUNS_IN_HOST=1");
  for (const auto& [name, data] : inputs) {
    const std::string input = dir.file("in");
    write_file(input, data);
    for (const std::vector<std::string>& args : kArgSets) {
      std::vector<std::string> ours = way;
      ours.insert(ours.end(), args.begin(), args.end());
      std::string shown;
      for (const std::string& a : ours) shown += a + ' ';
      const ForcedMerge run = sort_forcing_merge(dir, "planned", ours, env);
      ASSERT_EQ(run.result.exit_code, 0) << name << ": gsort " << shown << run.result.err;
      EXPECT_TRUE(run.out == gnu_sort(args, input)) << name << ": gsort " << shown << "differs from GNU sort";
      if (!way.empty()) EXPECT_EQ(run.result.err.find(" 0 runs"), std::string::npos) << "spilled: " << run.result.err;
      if (held) {
        EXPECT_NE(run.result.err.find(on_gpu ? "runs held in the GPU's memory" : "runs held in the host's memory"),
                  std::string::npos)
            << run.result.err;
      }
    }
  }
}

TEST(LineTies, InMemoryAsGnuSort) { against_gnu_sort({}); }

TEST(LineTies, SpilledAsGnuSort) { against_gnu_sort({"-S", "1M", "--backend", "cpu"}); }

TEST(LineTies, ThroughTheDeviceTierAsGnuSort) {
  // A GPU is usable where gsort --backend gpu sorts (the sanitizers' build has no CUDA to ask).
  TempDir dir;
  write_file(dir.file("probe"), "b\na\n");
  const ProcessResult probe =
      run_process({GSORT_BINARY, "--backend", "gpu", dir.file("probe"), "-o", dir.file("out")}, c_locale());
  against_gnu_sort({"-S", "1M"}, true, probe.exit_code == 0);
}

}  // namespace
}  // namespace gsort_test
